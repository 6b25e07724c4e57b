import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketState } from '../../application/ports/rate-limit-store.js';

/** `points` requests against `bucket`: rate-limiter-flexible rejects with a RateLimiterRes when the bucket cannot take them. */
export async function consumeBucket(
  limiter: RateLimiterAbstract,
  bucket: string,
  points: number,
): Promise<BucketState> {
  try {
    const result = await limiter.consume(bucket, points);
    return { allowed: true, remaining: result.remainingPoints, msBeforeReset: result.msBeforeNext };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      return { allowed: false, remaining: 0, msBeforeReset: rejection.msBeforeNext };
    throw rejection;
  }
}
