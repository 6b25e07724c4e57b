import { InvalidValue } from '../invalid-value.js';
import { commaList } from '../parsers.js';
import { section } from '../section.js';
import type { SettingValue } from '../setting.js';
import { integer, list, variable } from '../variable.js';

/** The spec's waits between webhook attempts: 30 s, 1, 2, 4, 8, 16, 32, 64 and 128 min. */
const DEFAULT_RETRY_SCHEDULE_MS = [30000, 60000, 120000, 240000, 480000, 960000, 1920000, 3840000, 7680000];

const nineDelays = (raw: string): number[] => {
  const items = commaList(raw);
  if (items.length !== 9 || !items.every((item) => /^\d{1,9}$/.test(item))) {
    throw new InvalidValue(
      `must list nine delays in milliseconds (ten attempts), comma-separated, got "${items.join(',')}"`,
    );
  }
  return items.map(Number);
};

export const webhooksSection = section('Webhooks', {
  allowHosts: list('WEBHOOK_ALLOW_HOSTS', [], 'hosts (or host:port) exempt from the public-address rule for webhooks'),
  timeoutMs: integer(
    'WEBHOOK_TIMEOUT_MS',
    15_000,
    [100, 60_000],
    'a webhook attempt must get its 2xx within this (resolving, connecting and the status line)',
  ),
  /** The nine waits between the ten attempts. */
  retryScheduleMs: variable({
    name: 'WEBHOOK_RETRY_SCHEDULE_MS',
    doc: "the nine waits between the ten webhook attempts, counted from the previous attempt's failure",
    shownDefault: `\`${DEFAULT_RETRY_SCHEDULE_MS.join(',')}\``,
    fallback: () => [...DEFAULT_RETRY_SCHEDULE_MS],
    parse: nineDelays,
  }),
  concurrency: integer('WEBHOOK_CONCURRENCY', 8, [1, 256], 'webhook attempts at once per worker process'),
  /** Webhook attempts of one account sent or waiting at once per worker process. */
  concurrencyPerAccount: integer(
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
    2,
    [1, 256],
    "webhook attempts of one account sent or waiting at once per worker process; more are put off, so one tenant's slow receivers cannot hold every slot (see [Webhooks](#webhooks))",
  ),
});

export type WebhookSettings = SettingValue<typeof webhooksSection>;
