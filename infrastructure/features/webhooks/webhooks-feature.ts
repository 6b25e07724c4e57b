import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { DeliverWebhook } from '../../../application/processes/deliver-webhook.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { createDeliverWebhook } from '../../webhooks/create-deliver-webhook.js';

/** Signed deliveries of a finished job's status to its webhookUrl. */
export const webhooksFeature = {
  name: 'webhooks',
  requires: ['accounts', 'downloads'],
  register: ({ container: c, config, logger, overrides }) =>
    c.singleton(DeliverWebhook, () => {
      const { eventStore, database } = c.resolve(TOKENS.storage);
      return createDeliverWebhook(config.webhooks, {
        store: eventStore,
        db: database,
        logger,
        metrics: c.resolve(TOKENS.metrics),
        jobs: c.resolve(TOKENS.downloadJobCommands),
        clock: c.resolve(TOKENS.clock),
        ids: c.resolve(TOKENS.ids),
        links: c.resolve(TOKENS.downloadLinks),
        secrets: c.resolve(TOKENS.apiKeySecrets),
        resolveHost: overrides.webhookResolver,
        charges: c.resolve(ChargeVisibility),
      });
    }),
  work: {
    // Each attempt comes back as a delayed redelivery of the one message, so it needs many deliveries.
    // Twice the sending slots are taken from the queue: the rest wait their account's turn (WebhookShares).
    webhook: (c, config) => ({
      handle: (message, delivery) => c.resolve(DeliverWebhook).handle(message, delivery),
      concurrency: 2 * config.webhooks.concurrency,
      maxDeliver: 10_000,
    }),
  },
} satisfies FeatureModule;
