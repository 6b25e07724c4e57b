/** Signed, expiring URLs to produced files: whoever holds one may fetch the file until it expires. */
export interface DownloadLinks {
  /** `completedAt` is when the file's job completed: files are deleted a retention period later, and no link outlives its file. */
  linkFor(file: { jobId: string; fileKey: string; filename: string; completedAt: string | null }, now: Date): string;
}
