import { ConfigError } from '../config-error.js';
import { type ConfigSection, custom, integer, list } from '../variable.js';

export interface WebhookSettings {
  allowHosts: string[];
  timeoutMs: number;
  /** The nine waits between the ten attempts. */
  retryScheduleMs: number[];
  concurrency: number;
  /** Webhook attempts of one account sent or waiting at once per worker process. */
  concurrencyPerAccount: number;
}

/** The spec's waits between webhook attempts: 30 s, 1, 2, 4, 8, 16, 32, 64 and 128 min. */
const DEFAULT_RETRY_SCHEDULE_MS = [
  '30000',
  '60000',
  '120000',
  '240000',
  '480000',
  '960000',
  '1920000',
  '3840000',
  '7680000',
];

const WEBHOOK_ALLOW_HOSTS = list(
  'WEBHOOK_ALLOW_HOSTS',
  [],
  'hosts (or host:port) exempt from the public-address rule for webhooks',
);
const WEBHOOK_TIMEOUT_MS = integer(
  'WEBHOOK_TIMEOUT_MS',
  15_000,
  [100, 60_000],
  'a webhook attempt must get its 2xx within this (resolving, connecting and the status line)',
);
const WEBHOOK_RETRY_SCHEDULE_MS = custom(
  'WEBHOOK_RETRY_SCHEDULE_MS',
  "the nine waits between the ten webhook attempts, counted from the previous attempt's failure",
  `\`${DEFAULT_RETRY_SCHEDULE_MS.join(',')}\``,
  (env) => {
    const items = env.list('WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_RETRY_SCHEDULE_MS);
    if (items.length !== 9 || !items.every((item) => /^\d{1,9}$/.test(item))) {
      throw new ConfigError(
        'WEBHOOK_RETRY_SCHEDULE_MS',
        `must list nine delays in milliseconds (ten attempts), comma-separated, got "${items.join(',')}"`,
      );
    }
    return items.map(Number);
  },
);
const WEBHOOK_CONCURRENCY = integer('WEBHOOK_CONCURRENCY', 8, [1, 256], 'webhook attempts at once per worker process');
const WEBHOOK_CONCURRENCY_PER_ACCOUNT = integer(
  'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
  2,
  [1, 256],
  "webhook attempts of one account sent or waiting at once per worker process; more are put off, so one tenant's slow receivers cannot hold every slot (see [Webhooks](#webhooks))",
);

export const webhooksSection: ConfigSection<WebhookSettings> = {
  title: 'Webhooks',
  variables: [
    WEBHOOK_ALLOW_HOSTS,
    WEBHOOK_TIMEOUT_MS,
    WEBHOOK_RETRY_SCHEDULE_MS,
    WEBHOOK_CONCURRENCY,
    WEBHOOK_CONCURRENCY_PER_ACCOUNT,
  ],
  load: (env) => ({
    allowHosts: WEBHOOK_ALLOW_HOSTS.read(env),
    timeoutMs: WEBHOOK_TIMEOUT_MS.read(env),
    retryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS.read(env),
    concurrency: WEBHOOK_CONCURRENCY.read(env),
    concurrencyPerAccount: WEBHOOK_CONCURRENCY_PER_ACCOUNT.read(env),
  }),
};
