import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';
import { consumeBucket } from './consume-bucket.js';

/**
 * rate-limiter-flexible's in-memory limiter, for the embedded mode: one
 * process serves every request, so its memory is the one shared store.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<number, RateLimiterMemory>();

  consume(bucket: string, limitPerSecond: number, points = 1): Promise<BucketState> {
    return consumeBucket(this.limiter(limitPerSecond), bucket, points);
  }

  private limiter(points: number): RateLimiterMemory {
    let limiter = this.limiters.get(points);
    if (limiter === undefined) {
      limiter = new RateLimiterMemory({ keyPrefix: `rps${points}`, points, duration: 1 });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
