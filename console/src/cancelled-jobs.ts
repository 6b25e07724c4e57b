/**
 * Jobs cancelled from this tab. The API answers a cancelled job as FAILED
 * with no error code, as it does a failure it could not classify, so only
 * the tab that cancelled it can say "Cancelled"; kept with the key in this
 * tab's sessionStorage, and forgotten with it.
 */
const KEY = 'vds.cancelledJobs';

function read(): string[] {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export const cancelledJobs = {
  add(jobId: string): void {
    sessionStorage.setItem(KEY, JSON.stringify([...new Set([...read(), jobId])]));
  },
  has(jobId: string): boolean {
    return read().includes(jobId);
  },
  clear(): void {
    sessionStorage.removeItem(KEY);
  },
};
