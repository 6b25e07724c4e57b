/**
 * Tells every worker process that a job was cancelled, so the one running it
 * stops its extractor. Best effort: the job's stream already says FAILED, and
 * a worker that missed the word discards its result when it finds that out.
 */
export interface JobCancellations {
  announce(jobId: string): Promise<void>;
}
