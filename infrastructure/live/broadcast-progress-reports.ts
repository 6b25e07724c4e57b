import type { DownloadProgress, ProgressReports } from '../../application/ports/download-progress.js';
import type { Logger } from '../../application/ports/logger.js';
import type { Broadcast } from '../../application/ports/work-queue.js';

/** Reports kept per job for throttling; far above the downloads one process runs at once. */
const MAX_TRACKED_JOBS = 1_000;

/**
 * Progress to every API process over the broadcast channel (NATS core in
 * server mode, in process embedded), at most one report per job per
 * interval; a change of stage goes out at once. Never waits, never throws:
 * a lost report only leaves a staler figure.
 */
export class BroadcastProgressReports implements ProgressReports {
  private readonly last = new Map<string, { at: number; stage: string }>();

  constructor(
    private readonly channel: Broadcast,
    private readonly logger: Logger,
    private readonly minIntervalMs = 1_000,
  ) {}

  report(jobId: string, progress: DownloadProgress): void {
    const now = Date.now();
    const previous = this.last.get(jobId);
    if (previous !== undefined && previous.stage === progress.stage && now - previous.at < this.minIntervalMs) return;
    this.last.delete(jobId);
    if (this.last.size >= MAX_TRACKED_JOBS) this.last.delete(this.last.keys().next().value as string);
    this.last.set(jobId, { at: now, stage: progress.stage });
    this.channel
      .publish({ jobId, progress })
      .catch((error: unknown) => this.logger.debug?.({ err: error, jobId }, 'a progress report was lost'));
  }
}
