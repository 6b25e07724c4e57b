/** Signed, expiring URLs to produced files: whoever holds one may fetch the file until it expires. */
export interface DownloadLinks {
  linkFor(file: { jobId: string; fileKey: string; filename: string }, now: Date): string;
}
