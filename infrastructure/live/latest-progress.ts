import type { DownloadProgress } from '../../application/ports/download-progress.js';

/** Reports older than this are not served: the worker died or lost its line to us. */
const FRESH_FOR_MS = 30_000;
/** Running downloads at once across every worker, with room to spare; the oldest report goes first beyond it. */
const MAX_JOBS = 10_000;

/**
 * The last progress report of each running job this process heard, for
 * polls: memory only, bounded, forgotten when the job changes status.
 */
export class LatestProgress {
  private readonly reports = new Map<string, { progress: DownloadProgress; at: number }>();

  record(jobId: string, progress: DownloadProgress): void {
    this.reports.delete(jobId);
    if (this.reports.size >= MAX_JOBS) this.reports.delete(this.reports.keys().next().value as string);
    this.reports.set(jobId, { progress, at: Date.now() });
  }

  of(jobId: string): DownloadProgress | undefined {
    const report = this.reports.get(jobId);
    if (report === undefined) return undefined;
    if (Date.now() - report.at > FRESH_FOR_MS) {
      this.reports.delete(jobId);
      return undefined;
    }
    return report.progress;
  }

  forget(jobId: string): void {
    this.reports.delete(jobId);
  }
}
