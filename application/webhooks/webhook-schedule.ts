/**
 * When each delivery of a webhook kept in a stream (a batch's `batch.finished`,
 * a subscription's `subscription.paused`) is next due, by the stream's id; the
 * delivery itself keeps its state in that stream.
 */
export interface WebhookSchedule {
  /** Sets (or moves) the delivery's next look. */
  schedule(id: string, at: Date): Promise<void>;
  due(now: Date, limit: number): Promise<string[]>;
  done(id: string): Promise<void>;
}
