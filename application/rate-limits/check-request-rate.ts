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

  /**
   * `planId` as authentication found it (see ApiKeyOwner): a plan change applies once the key is looked up again. At
   * once, without a promise, when the store decides every bucket from memory (the busy key's usual case).
   */
  execute(caller: {
    accountId: string;
    keyId: string;
    planId: string | null;
  }): RateDecision | null | Promise<RateDecision | null> {
    const { planId } = caller;
    const limits = (planId === null ? undefined : this.settings.byPlan[planId]) ?? this.settings.defaults;
    if (limits.perKey <= 0 && limits.perAccount <= 0) return null;
    const buckets: Array<{ scope: RateDecision['scope']; bucket: string; limit: number }> = [];
    if (limits.perKey > 0) buckets.push({ scope: 'key', bucket: `key:${caller.keyId}`, limit: limits.perKey });
    if (limits.perAccount > 0)
      buckets.push({ scope: 'account', bucket: `account:${caller.accountId}`, limit: limits.perAccount });
    const atOnce = buckets.map(({ bucket, limit }) => this.store.consumeAtOnce(bucket, limit));
    const decided = (states: BucketState[]) =>
      tightest(states.map((state, index) => ({ scope: buckets[index].scope, limit: buckets[index].limit, ...state })));
    if (atOnce.every((state) => state !== undefined)) return decided(atOnce as BucketState[]);
    // Only the buckets memory could not decide go to the store, so none is counted twice.
    return Promise.all(
      buckets.map(({ bucket, limit }, index) => atOnce[index] ?? this.store.consume(bucket, limit)),
    ).then(decided);
  }
}

/** The bucket refusing, or else the one with the fewest requests left. */
function tightest(decisions: RateDecision[]): RateDecision {
  return (
    decisions.find((decision) => !decision.allowed) ??
    decisions.reduce((least, decision) => (decision.remaining < least.remaining ? decision : least))
  );
}
