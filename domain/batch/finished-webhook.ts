import type { Decider } from '../decider.js';
import { decideWebhookDelivery } from '../webhook-delivery/decide.js';
import type { WebhookDeliveryCommand } from '../webhook-delivery/commands.js';
import { type WebhookDeliveryOwnEvent, isWebhookDeliveryOwnEvent } from '../webhook-delivery/events.js';
import { evolveWebhookDelivery } from '../webhook-delivery/evolve.js';
import { type WebhookDeliveryState, initialWebhookDeliveryState } from '../webhook-delivery/state.js';
import type { BatchEvent } from './events.js';

/** What the `batch.finished` delivery reads from the batch's stream: the batch's events and its own. */
export type BatchWebhookEvent = BatchEvent | WebhookDeliveryOwnEvent;

/**
 * The batch's `batch.finished` delivery, with the same schedule, 410 rule and
 * claims as a job's `download.finished`, its attempts recorded in the batch's
 * stream (their `jobId` is the batch's id). A retry reopens the batch, and
 * the next finish is a delivery of its own.
 */
export function evolveBatchWebhook(state: WebhookDeliveryState, event: BatchWebhookEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'BatchRequested': {
      const { batchId, accountId, batchWebhookUrl } = event.data;
      return { ...state, job: { jobId: batchId, accountId, webhookUrl: batchWebhookUrl } };
    }
    case 'BatchRetryRequested':
      return { ...initialWebhookDeliveryState(), job: state.job };
    case 'BatchFinished':
      return state.terminal === null
        ? { ...state, terminal: { event: 'batch.finished', at: event.data.finishedAt } }
        : state;
    default:
      return isWebhookDeliveryOwnEvent(event) ? evolveWebhookDelivery(state, event) : state;
  }
}

export const batchWebhookDecider: Decider<WebhookDeliveryCommand, BatchWebhookEvent, WebhookDeliveryState> = {
  decide: decideWebhookDelivery,
  evolve: evolveBatchWebhook,
  initialState: initialWebhookDeliveryState,
};
