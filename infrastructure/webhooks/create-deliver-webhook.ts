import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { ChargeVisibility } from '../../application/accounts/charge-visibility.js';
import { CommandHandler } from '../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';
import type { Clock } from '../../application/ports/clock.js';
import type { DownloadLinks } from '../../application/ports/download-links.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { IdGenerator } from '../../application/ports/id-generator.js';
import type { Logger } from '../../application/ports/logger.js';
import { DeliverWebhook } from '../../application/processes/deliver-webhook.js';
import { WebhookShares } from '../../application/webhooks/webhook-shares.js';
import { WEBHOOK_DELIVERY_CATEGORY, webhookDeliveryDecider } from '../../domain/webhook-delivery/decider.js';
import type { WebhookSettings } from '../config/sections/webhooks.js';
import { DownloadStatusJson } from '../http/download-status-json.js';
import { PrometheusWebhookMetrics } from '../observability/webhook-metrics.js';
import { type ResolveHost, systemResolver } from './checked-address-lookup.js';
import { HttpWebhookSender } from './http-webhook-sender.js';
import { ReadModelSigningKeys } from './read-model-signing-keys.js';

export interface WebhookDeliveryDependencies {
  store: EventStore;
  db: Knex;
  logger: Logger;
  metrics: Registry;
  jobs: DownloadJobCommandHandler;
  clock: Clock;
  ids: IdGenerator;
  links: DownloadLinks;
  secrets: ApiKeySecrets;
  /** Default: the system resolver (hosts file, then DNS). */
  resolveHost?: ResolveHost;
  /** When given, the first attempt waits until the account's read model shows the job's charge or release. */
  charges?: ChargeVisibility;
}

/** The webhook worker's adapters, kept out of the composition root so it only has to call this. */
export function createDeliverWebhook(settings: WebhookSettings, deps: WebhookDeliveryDependencies): DeliverWebhook {
  const { charges } = deps;
  return new DeliverWebhook({
    deliveries: new CommandHandler(deps.store, webhookDeliveryDecider, WEBHOOK_DELIVERY_CATEGORY, deps.ids),
    jobs: deps.jobs,
    renderer: new DownloadStatusJson(deps.links),
    sender: new HttpWebhookSender({
      allowHosts: settings.allowHosts,
      resolve: deps.resolveHost ?? systemResolver,
      clock: deps.clock,
    }),
    keys: new ReadModelSigningKeys(deps.db, deps.secrets),
    clock: deps.clock,
    logger: deps.logger.child({ process: 'webhook' }),
    metrics: new PrometheusWebhookMetrics(deps.metrics),
    options: {
      timeoutMs: settings.timeoutMs,
      retryDelaysMs: settings.retryScheduleMs,
      workerId: `${hostname()}:${process.pid}:${deps.ids.next().slice(0, 8)}`,
      shares: new WebhookShares({
        concurrency: settings.concurrency,
        perAccount: settings.concurrencyPerAccount,
        attemptTimeoutMs: settings.timeoutMs,
      }),
      chargeVisible: charges === undefined ? undefined : (accountId, jobId) => charges.isVisible(accountId, jobId),
    },
  });
}
