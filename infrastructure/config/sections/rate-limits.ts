import type { RateLimitSettings } from '../../../application/rate-limits/check-request-rate.js';
import { ConfigError } from '../config-error.js';
import type { EnvReader } from '../env-reader.js';
import { type ConfigSection, integer, list } from '../variable.js';

export interface RateLimitSection {
  limits: RateLimitSettings;
  /** Share of a bucket's limit an API instance takes from the shared counters at once (server mode); 0 counts each request there. */
  leasePercent: number;
}

const RATE_LIMIT_KEY_PER_SECOND = integer(
  'RATE_LIMIT_KEY_PER_SECOND',
  10,
  [0, 100_000],
  "API requests per second per key; `0` is unlimited. Fixes: one client's loop starving everybody else",
);
const RATE_LIMIT_ACCOUNT_PER_SECOND = integer(
  'RATE_LIMIT_ACCOUNT_PER_SECOND',
  20,
  [0, 100_000],
  'API requests per second per account (all its keys together); `0` is unlimited',
);
const RATE_LIMITS_BY_PLAN = list(
  'RATE_LIMITS_BY_PLAN',
  [],
  'per-plan overrides, `plan=perKey/perAccount` separated by commas, e.g. `free=2/4,scale=50/200,custom=0/0`',
);
const RATE_LIMIT_LEASE_PERCENT = integer(
  'RATE_LIMIT_LEASE_PERCENT',
  10,
  [0, 50],
  'share of a limit an API instance takes from the shared counters at once (server mode, 0-50); `0` counts every request in PostgreSQL. Fixes: a database round trip per request for keys with high limits',
);

export const rateLimitsSection: ConfigSection<RateLimitSection> = {
  title: 'Request rate limits',
  variables: [RATE_LIMIT_KEY_PER_SECOND, RATE_LIMIT_ACCOUNT_PER_SECOND, RATE_LIMITS_BY_PLAN, RATE_LIMIT_LEASE_PERCENT],
  load: (env) => ({ limits: limits(env), leasePercent: RATE_LIMIT_LEASE_PERCENT.read(env) }),
};

/** `RATE_LIMITS_BY_PLAN=free=2/4,scale=50/100`: per plan, requests per second per key / per account (0 = unlimited). */
function limits(env: EnvReader): RateLimitSettings {
  const defaults = { perKey: RATE_LIMIT_KEY_PER_SECOND.read(env), perAccount: RATE_LIMIT_ACCOUNT_PER_SECOND.read(env) };
  const byPlan: Record<string, { perKey: number; perAccount: number }> = {};
  for (const entry of RATE_LIMITS_BY_PLAN.read(env)) {
    const match = /^([a-z0-9_-]+)=(\d{1,6})\/(\d{1,6})$/i.exec(entry);
    if (match === null)
      throw new ConfigError('RATE_LIMITS_BY_PLAN', `must list plan=perKey/perAccount entries, got "${entry}"`);
    byPlan[match[1]] = { perKey: Number(match[2]), perAccount: Number(match[3]) };
  }
  return { defaults, byPlan };
}
