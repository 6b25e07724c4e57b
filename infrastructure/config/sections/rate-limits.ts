import type { RateLimitSettings, RateLimits } from '../../../application/rate-limits/check-request-rate.js';
import { group } from '../compose-settings.js';
import { InvalidValue } from '../invalid-value.js';
import { commaList } from '../parsers.js';
import { section } from '../section.js';
import type { Setting } from '../setting.js';
import { integer, variable } from '../variable.js';

/** `free=2/4,scale=50/100`: per plan, requests per second per key / per account (0 = unlimited). */
const limitsByPlan = (raw: string): Record<string, RateLimits> => {
  const byPlan: Record<string, RateLimits> = {};
  for (const entry of commaList(raw)) {
    const match = /^([a-z0-9_-]+)=(\d{1,6})\/(\d{1,6})$/i.exec(entry);
    if (match === null) throw new InvalidValue(`must list plan=perKey/perAccount entries, got "${entry}"`);
    byPlan[match[1]] = { perKey: Number(match[2]), perAccount: Number(match[3]) };
  }
  return byPlan;
};

const limits: Setting<RateLimitSettings> = group({
  defaults: group({
    perKey: integer(
      'RATE_LIMIT_KEY_PER_SECOND',
      10,
      [0, 100_000],
      "API requests per second per key; `0` is unlimited. Fixes: one client's loop starving everybody else",
    ),
    perAccount: integer(
      'RATE_LIMIT_ACCOUNT_PER_SECOND',
      20,
      [0, 100_000],
      'API requests per second per account (all its keys together); `0` is unlimited',
    ),
  }),
  byPlan: variable({
    name: 'RATE_LIMITS_BY_PLAN',
    doc: 'per-plan overrides, `plan=perKey/perAccount` separated by commas, e.g. `free=2/4,scale=50/200,custom=0/0`',
    shownDefault: 'empty',
    fallback: () => ({}),
    parse: limitsByPlan,
  }),
});

export const rateLimitsSection = section('Request rate limits', {
  limits,
  /** Share of a bucket's limit an API instance takes from the shared counters at once (server mode); 0 counts each request there. */
  leasePercent: integer(
    'RATE_LIMIT_LEASE_PERCENT',
    10,
    [0, 50],
    'share of a limit an API instance takes from the shared counters at once (server mode, 0-50); `0` counts every request in PostgreSQL. Fixes: a database round trip per request for keys with high limits',
  ),
});
