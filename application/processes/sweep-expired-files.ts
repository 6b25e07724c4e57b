import type { CommandHandler } from '../command-handler.js';
import type { DeleteFile, FileRetentionEvent, FileRetentionState } from '../../domain/file-retention/decider.js';
import type { Clock } from '../ports/clock.js';
import type { ExpiredFiles } from '../ports/expired-files.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';

export type FileRetentionCommandHandler = CommandHandler<DeleteFile, FileRetentionEvent, FileRetentionState>;

/**
 * Deletes the files of jobs completed more than `retentionSeconds` ago and
 * records each deletion (FileDeleted) in the job's stream. The file goes
 * first, the event second: a crash between the two leaves a job whose file is
 * already gone, which the next sweep finds again and records, since removing
 * a missing file and recording a recorded deletion both do nothing.
 */
export class SweepExpiredFiles {
  constructor(
    private readonly expired: ExpiredFiles,
    private readonly files: FileStore,
    private readonly retention: FileRetentionCommandHandler,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: { retentionSeconds: number; batchSize: number },
  ) {}

  /** One pass; returns how many files it deleted. */
  async sweep(signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      const cutoff = new Date(this.clock.now().getTime() - this.options.retentionSeconds * 1000);
      const batch = await this.expired.completedBefore(cutoff, this.options.batchSize);
      const before = deleted;
      for (const file of batch) {
        if (signal?.aborted === true) return deleted;
        await this.files.remove(file.fileKey);
        const { events } = await this.retention.handle(file.jobId, { type: 'DeleteFile', data: { jobId: file.jobId, now: this.clock.now().toISOString() } }, { correlationId: file.jobId });
        if (events.length > 0) {
          deleted += 1;
          this.logger.info({ jobId: file.jobId, accountId: file.accountId }, 'expired file deleted');
        }
      }
      // A batch whose deletions were all recorded already means the read model lags: the next pass will see them.
      if (batch.length < this.options.batchSize || deleted === before) return deleted;
    }
  }
}
