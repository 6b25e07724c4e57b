/** A job a batch admitted, as the batch process remembers it. */
export interface IndexedBatchJob {
  jobId: string;
  batchId: string;
  accountId: string;
  videoUrl: string;
}

/**
 * What the batch process remembers between events: which batch each admitted
 * job belongs to (a job's own events do not say), which admitted jobs it has
 * not yet written (their account was at its pending limit), and which
 * batches may still have videos waiting. Written in the order the process
 * reads events, so it never lags the events it is asked about.
 */
export interface BatchJobIndex {
  /** Idempotent. */
  remember(job: IndexedBatchJob): Promise<void>;
  markSubmitted(jobId: string): Promise<void>;
  batchOfJob(jobId: string): Promise<IndexedBatchJob | null>;
  /** The account's admitted jobs not yet written, oldest first. */
  unsubmitted(accountId: string): Promise<IndexedBatchJob[]>;
  markOpen(batchId: string, accountId: string): Promise<void>;
  markClosed(batchId: string): Promise<void>;
  /** Batches of the account that may have waiting videos, oldest first. */
  openBatches(accountId: string): Promise<string[]>;
}
