import { hostname } from 'node:os';
import { CommandHandler } from '../../application/command-handler.js';
import { DeliverStreamWebhook } from '../../application/webhooks/deliver-stream-webhook.js';
import type { Decider, DomainEvent } from '../../domain/decider.js';
import type { WebhookDeliveryCommand } from '../../domain/webhook-delivery/commands.js';
import type { WebhookDeliveryState } from '../../domain/webhook-delivery/state.js';
import type { FeatureContext } from './feature-module.js';
import { TOKENS } from './tokens.js';
import { systemResolver } from '../webhooks/checked-address-lookup.js';
import { DueWebhookDeliveries } from '../webhooks/due-webhook-deliveries.js';
import { HttpWebhookSender } from '../webhooks/http-webhook-sender.js';
import { PostgresWebhookSchedule } from '../webhooks/postgres-webhook-schedule.js';
import { ReadModelSigningKeys } from '../webhooks/read-model-signing-keys.js';

export interface StreamWebhookSpec<Event extends DomainEvent> {
  /** The delivery's decider over the feature's streams, and their category. */
  decider: Decider<WebhookDeliveryCommand, Event, WebhookDeliveryState>;
  category: string;
  body: (id: string) => Promise<unknown>;
  correlation: (id: string) => { correlationId: string };
  /** The feature's schedule table and its id column. */
  schedule: { table: string; idColumn: string };
}

/**
 * A feature's webhook kept in its own streams, sent by the webhooks' sender,
 * signing keys and settings; its due deliveries are run by whoever calls
 * `runDue` (one worker of the deployment).
 */
export function createStreamWebhookDeliveries<Event extends DomainEvent>(
  { container: c, config, overrides }: FeatureContext,
  spec: StreamWebhookSpec<Event>,
): DueWebhookDeliveries {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  const settings = config.webhooks;
  const clock = c.resolve(TOKENS.clock);
  const deliver = new DeliverStreamWebhook({
    deliveries: new CommandHandler(eventStore, spec.decider, spec.category, c.resolve(TOKENS.ids)),
    body: spec.body,
    correlation: spec.correlation,
    sender: new HttpWebhookSender({
      allowHosts: settings.allowHosts,
      resolve: overrides.webhookResolver ?? systemResolver,
      clock,
    }),
    keys: new ReadModelSigningKeys(database, c.resolve(TOKENS.apiKeySecrets)),
    clock,
    options: {
      timeoutMs: settings.timeoutMs,
      retryDelaysMs: settings.retryScheduleMs,
      workerId: `${hostname()}:${process.pid}`,
    },
  });
  const schedule = new PostgresWebhookSchedule(database, spec.schedule.table, spec.schedule.idColumn);
  return new DueWebhookDeliveries(deliver, schedule, clock);
}
