/** A job whose retention period has run out and whose files may still be stored. */
export interface ExpiredFile {
  jobId: string;
  accountId: string;
}

/**
 * Finds jobs that ended before a moment and whose files are not deleted yet:
 * completed jobs, and failed jobs that had started an attempt (its worker
 * may have stored a file and died before completing).
 */
export interface ExpiredFiles {
  /** `skip`: jobs to leave out (the sweeper is backing off from them). */
  endedBefore(moment: Date, limit: number, skip?: readonly string[]): Promise<ExpiredFile[]>;
}
