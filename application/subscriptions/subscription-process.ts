import type { SubscriptionEvent } from '../../domain/subscription/events.js';
import type { EventFilter, RecordedEvent } from '../ports/event-store.js';
import type { SubmitSubscriptionVideos } from './submit-subscription-videos.js';
import {
  type RosterCommandHandler,
  type SubscriptionCommandHandler,
  subscriptionCorrelation,
} from './subscription-commands.js';
import type { Clock } from '../ports/clock.js';
import type { WebhookSchedule } from '../webhooks/webhook-schedule.js';

/** The events the subscription process reacts to. */
export const SUBSCRIPTION_PROCESS_FILTER: EventFilter = {
  streamPrefixes: ['subscription-'],
  eventTypes: [
    'SubscriptionCheckCompleted',
    'SubscriptionResumed',
    'SubscriptionVideoSubmitted',
    'SubscriptionPaused',
    'SubscriptionDeleted',
  ],
};

export interface SubscriptionProcessDependencies {
  readonly subscriptions: SubscriptionCommandHandler;
  readonly roster: RosterCommandHandler;
  readonly submission: SubmitSubscriptionVideos;
  readonly clock: Clock;
  /** Where a subscription that paused itself, with a webhookUrl, is put for its `subscription.paused`. */
  readonly webhooks?: WebhookSchedule;
}

/**
 * What follows a subscription's events, in the order they were recorded: a
 * completed check (or a resume) submits the videos found; a video submitted
 * gets its job written, even when the process that chose its id stopped
 * before writing it; a self-pause is announced by `subscription.paused`;
 * a deletion gives back the plan's slot. Events arrive at
 * least once, and each step repeated changes nothing.
 */
export class SubscriptionProcess {
  constructor(private readonly deps: SubscriptionProcessDependencies) {}

  async react(recorded: Pick<RecordedEvent, 'type' | 'data'>): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as SubscriptionEvent;
    const { subscriptionId, accountId } = event.data;
    switch (event.type) {
      case 'SubscriptionCheckCompleted':
      case 'SubscriptionResumed':
        return this.deps.submission.submitFound(subscriptionId);
      case 'SubscriptionVideoSubmitted': {
        const { state } = await this.deps.subscriptions.load(subscriptionId);
        if (state.status === 'active' || state.status === 'paused')
          await this.deps.submission.writeJob(state, event.data);
        return;
      }
      case 'SubscriptionPaused':
        if (event.data.pausedBy === 'subscription') await this.scheduleWebhook(subscriptionId, event.data.pausedAt);
        return;
      case 'SubscriptionDeleted':
        await this.deps.roster.handle(
          accountId,
          {
            type: 'ReleaseSubscription',
            data: { accountId, subscriptionId, now: this.deps.clock.now().toISOString() },
          },
          subscriptionCorrelation(subscriptionId),
        );
        return;
      default:
        return;
    }
  }

  private async scheduleWebhook(subscriptionId: string, pausedAt: string): Promise<void> {
    const { state } = await this.deps.subscriptions.load(subscriptionId);
    if (state.status !== 'none' && state.created.webhookUrl !== null)
      await this.deps.webhooks?.schedule(subscriptionId, new Date(pausedAt));
  }
}
