import type { Decider } from '../decider.js';
import { DOWNLOAD_JOB_CATEGORY } from '../download-job/decider.js';
import type { WebhookDeliveryCommand } from './commands.js';
import { decideWebhookDelivery } from './decide.js';
import { type WebhookDeliveryEvent, evolveWebhookDelivery } from './evolve.js';
import { type WebhookDeliveryState, initialWebhookDeliveryState } from './state.js';

/**
 * Delivery events live in the job's own stream, so an auditor reads a job's
 * whole history in one place; this decider folds only what it needs from it.
 */
export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  decide: decideWebhookDelivery,
  evolve: evolveWebhookDelivery,
  initialState: initialWebhookDeliveryState,
};

export const WEBHOOK_DELIVERY_CATEGORY = DOWNLOAD_JOB_CATEGORY;
