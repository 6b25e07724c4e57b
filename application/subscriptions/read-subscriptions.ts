import type { SubscriptionCommandHandler } from './subscription-commands.js';
import type { SubscriptionReadModel } from './subscription-read-model.js';
import { type SubscriptionView, subscriptionView } from './subscription-view.js';

/**
 * `GET /subscriptions[/{id}]`: from the read model; one subscription from its
 * stream while the read model has not caught up (read right after its
 * creation). Another account's, or a deleted one, is null (a 404).
 */
export class ReadSubscriptions {
  constructor(
    private readonly views: SubscriptionReadModel,
    private readonly subscriptions: SubscriptionCommandHandler,
  ) {}

  async get(accountId: string, subscriptionId: string): Promise<SubscriptionView | null> {
    const view = (await this.views.get(subscriptionId)) ?? (await this.fromStream(subscriptionId));
    return view === null || view.accountId !== accountId ? null : view;
  }

  list(accountId: string, offset: number, limit: number): Promise<{ items: SubscriptionView[]; total: number }> {
    return this.views.list(accountId, offset, limit);
  }

  private async fromStream(subscriptionId: string): Promise<SubscriptionView | null> {
    const { state } = await this.subscriptions.load(subscriptionId);
    return state.status === 'none' ? null : subscriptionView(state);
  }
}
