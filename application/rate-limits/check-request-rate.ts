import type { BucketState, RateLimitStore } from '../ports/rate-limit-store.js';

/** Requests per second for one API key and for its whole account; 0 means unlimited. */
export interface RateLimits {
  perKey: number;
  perAccount: number;
}

export interface RateLimitSettings {
  defaults: RateLimits;
  /** Plan id → limits replacing the defaults for accounts on that plan. */
  byPlan: Readonly<Record<string, RateLimits>>;
}

export interface RateDecision {
  allowed: boolean;
  /** The bucket that decided: the one refusing, or else the one with the fewest requests left. */
  scope: 'key' | 'account';
  limit: number;
  remaining: number;
  msBeforeReset: number;
}

/**
 * Counts one API request against its key's and its account's allowance per
 * second. Separate from the contract's 100-pending-downloads rule, which
 * counts jobs, not requests. Null when neither allowance is limited.
 */
export class CheckRequestRate {
  constructor(
    private readonly store: RateLimitStore,
    private readonly settings: RateLimitSettings,
  ) {}

  /** `planId` as authentication found it (see ApiKeyOwner): a plan change applies once the key is looked up again. */
  async execute(caller: { accountId: string; keyId: string; planId: string | null }): Promise<RateDecision | null> {
    const { planId } = caller;
    const limits = (planId === null ? undefined : this.settings.byPlan[planId]) ?? this.settings.defaults;
    if (limits.perKey <= 0 && limits.perAccount <= 0) return null;
    const checks: Array<Promise<RateDecision>> = [];
    if (limits.perKey > 0) checks.push(this.check('key', `key:${caller.keyId}`, limits.perKey));
    if (limits.perAccount > 0) checks.push(this.check('account', `account:${caller.accountId}`, limits.perAccount));
    const decisions = await Promise.all(checks);
    const refused = decisions.find((decision) => !decision.allowed);
    return (
      refused ??
      decisions.reduce((tightest, decision) => (decision.remaining < tightest.remaining ? decision : tightest))
    );
  }

  private async check(scope: RateDecision['scope'], bucket: string, limit: number): Promise<RateDecision> {
    const state: BucketState = await this.store.consume(bucket, limit);
    return { scope, limit, ...state };
  }
}
