/** When each finished batch's `batch.finished` delivery is next due; the delivery itself keeps its state in the batch's stream. */
export interface BatchWebhookSchedule {
  /** Sets (or moves) the batch's next look. */
  schedule(batchId: string, at: Date): Promise<void>;
  due(now: Date, limit: number): Promise<string[]>;
  done(batchId: string): Promise<void>;
}
