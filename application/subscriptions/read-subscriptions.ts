import { SUBSCRIPTION_CATEGORY } from '../../domain/subscription/decider.js';
import { streamName } from '../../domain/stream-name.js';
import type { EventStore } from '../ports/event-store.js';
import type { SubscriptionCommandHandler } from './subscription-commands.js';
import type { SubscriptionReadModel } from './subscription-read-model.js';
import { type SubscriptionView, subscriptionView } from './subscription-view.js';

/**
 * `GET /subscriptions[/{id}]`. One subscription is exact: from the read model
 * when its row is as new as the subscription's stream, from the stream
 * otherwise (read right after a change, such as its creation or deletion).
 * The list is the read model's. Another account's, or a deleted one, is null
 * (a 404).
 */
export class ReadSubscriptions {
  constructor(
    private readonly views: SubscriptionReadModel,
    private readonly subscriptions: SubscriptionCommandHandler,
    private readonly store: EventStore,
  ) {}

  async get(accountId: string, subscriptionId: string): Promise<SubscriptionView | null> {
    const [row, head] = await Promise.all([this.views.get(subscriptionId), this.headRevision(subscriptionId)]);
    const view = row !== null && row.revision >= head ? row.view : await this.fromStream(subscriptionId);
    return view === null || view.accountId !== accountId ? null : view;
  }

  private async headRevision(subscriptionId: string): Promise<number> {
    const stream = streamName(SUBSCRIPTION_CATEGORY, subscriptionId);
    const [last] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last?.revision ?? -1;
  }

  list(accountId: string, offset: number, limit: number): Promise<{ items: SubscriptionView[]; total: number }> {
    return this.views.list(accountId, offset, limit);
  }

  private async fromStream(subscriptionId: string): Promise<SubscriptionView | null> {
    const { state } = await this.subscriptions.load(subscriptionId);
    return state.status === 'none' ? null : subscriptionView(state);
  }
}
