import type { CommandHandler } from '../command-handler.js';
import type { DeleteFile, FileRetentionEvent, FileRetentionState } from '../../domain/file-retention/decider.js';
import { jobFilesPrefix } from '../downloads/job-file-keys.js';
import type { Clock } from '../ports/clock.js';
import type { ExpiredFile, ExpiredFiles } from '../ports/expired-files.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';
import { JobBackoff } from './job-backoff.js';

export type FileRetentionCommandHandler = CommandHandler<DeleteFile, FileRetentionEvent, FileRetentionState>;

/** What the sweep of expired files works with. */
export interface SweepExpiredFilesDependencies {
  readonly expired: ExpiredFiles;
  readonly files: FileStore;
  readonly retention: FileRetentionCommandHandler;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: SweepExpiredFilesOptions;
}

export interface SweepExpiredFilesOptions {
  retentionSeconds: number;
  batchSize: number;
  failureBackoffMs?: { baseMs: number; maxMs: number };
}

/**
 * Deletes every file of jobs that ended more than `retentionSeconds` ago (an attempt whose worker died may have left
 * one too) and records it in the job's stream: FileDeleted, or FailedJobFilesDeleted for a failed job. Files go before
 * the event, so a crash between the two is repaired by the next sweep, both steps being idempotent. A job whose
 * deletion fails waits longer after each failure while the pass goes on; a batch in which every job failed ends the
 * pass, since the store is then likely down.
 */
export class SweepExpiredFiles {
  private readonly backoff: JobBackoff;

  private readonly expired: ExpiredFiles;
  private readonly files: FileStore;
  private readonly retention: FileRetentionCommandHandler;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: SweepExpiredFilesOptions;

  constructor(dependencies: SweepExpiredFilesDependencies) {
    ({
      expired: this.expired,
      files: this.files,
      retention: this.retention,
      clock: this.clock,
      logger: this.logger,
      options: this.options,
    } = dependencies);
    this.backoff = new JobBackoff(this.clock, this.options.failureBackoffMs ?? { baseMs: 60_000, maxMs: 3_600_000 });
  }

  /** One pass; returns how many jobs' files it deleted. */
  async sweep(signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      const cutoff = new Date(this.clock.now().getTime() - this.options.retentionSeconds * 1000);
      const batch = await this.expired.endedBefore(cutoff, this.options.batchSize, this.backoff.waiting());
      const before = deleted;
      let failed = 0;
      for (const job of batch) {
        if (signal?.aborted === true) return deleted;
        const outcome = await this.deleteFiles(job);
        if (outcome === 'deleted') deleted += 1;
        if (outcome === 'failed') failed += 1;
      }
      if (batch.length > 0 && failed === batch.length) return deleted;
      // A batch whose deletions were all recorded already means the read model lags: the next pass will see them.
      if (batch.length < this.options.batchSize || deleted === before) return deleted;
    }
  }

  private async deleteFiles(job: ExpiredFile): Promise<'deleted' | 'recorded already' | 'failed'> {
    try {
      const removed = await this.files.removeByPrefix(jobFilesPrefix(job.accountId, job.jobId));
      const { events } = await this.retention.handle(
        job.jobId,
        { type: 'DeleteFile', data: { jobId: job.jobId, now: this.clock.now().toISOString() } },
        { correlationId: job.jobId },
      );
      this.backoff.succeeded(job.jobId);
      if (events.length === 0) return 'recorded already';
      this.logger.info(
        { jobId: job.jobId, accountId: job.accountId, removed },
        events[0].type === 'FileDeleted' ? 'expired file deleted' : 'expired files of a failed job deleted',
      );
      return 'deleted';
    } catch (error) {
      const retryInMs = this.backoff.failed(job.jobId);
      this.logger.warn(
        { err: error, jobId: job.jobId, accountId: job.accountId, retryInMs },
        'could not delete the expired files of a job; trying it again later',
      );
      return 'failed';
    }
  }
}
