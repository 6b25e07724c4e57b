/**
 * Where a job's files live in the file store. Each attempt stores under a
 * key of its own, so a late worker never overwrites the file of the one that
 * took over; and all of them share one prefix, so the files of attempts
 * that died before completing can be found and removed.
 */
export function attemptFileKey(accountId: string, jobId: string, attempt: number, extension: string): string {
  return `${jobFilesPrefix(accountId, jobId)}${attempt}.${extension}`;
}

/** Every file of the job starts so, those stored before keys named the attempt (`<jobId>.<extension>`) included. */
export function jobFilesPrefix(accountId: string, jobId: string): string {
  return `${accountId}/${jobId}.`;
}

/** Every file of every job of the account. */
export function accountFilesPrefix(accountId: string): string {
  return `${accountId}/`;
}
