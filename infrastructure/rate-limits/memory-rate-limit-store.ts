import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';

/**
 * rate-limiter-flexible's in-memory limiter, for the embedded mode: one
 * process serves every request, so its memory is the one shared store.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<number, RateLimiterMemory>();

  async consume(bucket: string, limitPerSecond: number): Promise<BucketState> {
    try {
      const result = await this.limiter(limitPerSecond).consume(bucket);
      return { allowed: true, remaining: result.remainingPoints, msBeforeReset: result.msBeforeNext };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, remaining: 0, msBeforeReset: rejection.msBeforeNext };
      throw rejection;
    }
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
