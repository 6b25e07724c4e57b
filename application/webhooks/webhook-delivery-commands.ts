import type { WebhookDeliveryCommand } from '../../domain/webhook-delivery/commands.js';
import type { WebhookDeliveryEvent } from '../../domain/webhook-delivery/evolve.js';
import type { WebhookDeliveryState } from '../../domain/webhook-delivery/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The webhook delivery's command handler, over the same `download-<jobId>` streams as the job's. */
export type WebhookDeliveryCommandHandler = CommandHandler<
  WebhookDeliveryCommand,
  WebhookDeliveryEvent,
  WebhookDeliveryState
>;
