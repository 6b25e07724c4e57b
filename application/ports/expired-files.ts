/** A produced file whose retention period has run out. */
export interface ExpiredFile {
  jobId: string;
  accountId: string;
  fileKey: string;
}

/** Finds files of jobs completed before a moment and not yet deleted. */
export interface ExpiredFiles {
  completedBefore(moment: Date, limit: number): Promise<ExpiredFile[]>;
}
