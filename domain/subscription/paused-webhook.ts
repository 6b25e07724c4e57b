import type { Decider } from '../decider.js';
import type { WebhookDeliveryCommand } from '../webhook-delivery/commands.js';
import { decideWebhookDelivery } from '../webhook-delivery/decide.js';
import { type WebhookDeliveryOwnEvent, isWebhookDeliveryOwnEvent } from '../webhook-delivery/events.js';
import { evolveWebhookDelivery } from '../webhook-delivery/evolve.js';
import { type WebhookDeliveryState, initialWebhookDeliveryState } from '../webhook-delivery/state.js';
import type { SubscriptionEvent } from './events.js';

/** What the `subscription.paused` delivery reads from the subscription's stream: its events and the delivery's own. */
export type SubscriptionWebhookEvent = SubscriptionEvent | WebhookDeliveryOwnEvent;

/**
 * The `subscription.paused` delivery of a subscription that paused itself
 * (its credit ran out), sent to its `webhookUrl` with the schedule, 410 rule
 * and claims of `download.finished`, its attempts recorded in the
 * subscription's stream (their `jobId` is the subscription's id). A resume
 * closes it, and the next self-pause is a delivery of its own.
 */
function evolveSubscriptionWebhook(state: WebhookDeliveryState, event: SubscriptionWebhookEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'SubscriptionCreated': {
      const { subscriptionId, accountId, webhookUrl } = event.data;
      return { ...state, job: { jobId: subscriptionId, accountId, webhookUrl } };
    }
    case 'SubscriptionResumed':
      return { ...initialWebhookDeliveryState(), job: state.job };
    case 'SubscriptionPaused':
      return event.data.pausedBy === 'subscription' && state.terminal === null
        ? { ...state, terminal: { event: 'subscription.paused', at: event.data.pausedAt } }
        : state;
    default:
      return isWebhookDeliveryOwnEvent(event) ? evolveWebhookDelivery(state, event) : state;
  }
}

export const subscriptionWebhookDecider: Decider<
  WebhookDeliveryCommand,
  SubscriptionWebhookEvent,
  WebhookDeliveryState
> = {
  decide: decideWebhookDelivery,
  evolve: evolveSubscriptionWebhook,
  initialState: initialWebhookDeliveryState,
};
