/** What one counted request left in a bucket. */
export interface BucketState {
  allowed: boolean;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Until the window resets. */
  msBeforeReset: number;
}

/**
 * Counts requests per bucket in fixed one-second windows, shared by every API
 * instance of the deployment.
 */
export interface RateLimitStore {
  /** Counts `points` requests (default 1) at once: all admitted, or all refused. */
  consume(bucket: string, limitPerSecond: number, points?: number): Promise<BucketState>;
  /**
   * Counts one request when what the store holds in memory decides it, without waiting; undefined (nothing counted)
   * when only `consume` can. Spares the requests of a busy key a promise and its turns of the event loop.
   */
  consumeAtOnce(bucket: string, limitPerSecond: number): BucketState | undefined;
}
