/** What a bucket's count says after an addition. */
export interface WindowCount {
  /** False when the addition would have passed the limit; then nothing was added. */
  allowed: boolean;
  /** Requests the window has left (0 when refused). */
  remaining: number;
}

/**
 * Counts requests per bucket in the clock's whole seconds, shared by every API instance of the deployment. The caller
 * names the second, so a busy bucket's next second can be counted before it starts.
 */
export interface WindowCounter {
  /** Adds `points` to `bucket`'s count for `epochSecond`, all or nothing, so the count never passes `limit`. */
  add(bucket: string, epochSecond: number, limit: number, points: number): Promise<WindowCount>;
}
