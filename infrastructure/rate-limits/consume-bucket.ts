import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketState } from '../../application/ports/rate-limit-store.js';

/** One request against `bucket`: rate-limiter-flexible rejects with a RateLimiterRes when the bucket is spent. */
export async function consumeBucket(limiter: RateLimiterAbstract, bucket: string): Promise<BucketState> {
  try {
    const result = await limiter.consume(bucket);
    return { allowed: true, remaining: result.remainingPoints, msBeforeReset: result.msBeforeNext };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, remaining: 0, msBeforeReset: rejection.msBeforeNext };
    throw rejection;
  }
}
