import { isFinalErrorCode } from '../../domain/download-error-code.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import { ExtractionError, type Extractor } from '../ports/extractor.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';
import type { WorkDirs } from '../ports/work-dirs.js';
import { workContext } from './work-context.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

export interface RunDownloadOptions {
  /** Attempts per job, counting those cut short by a worker that died. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

/**
 * DownloadRequested -> StartJob -> extractor -> file store -> CompleteJob,
 * or FailJob with the extractor's code. Transient failures are retried with
 * backoff; when the attempts run out the job fails with NETWORK_ERROR, so no
 * job stays IN_PROGRESS forever.
 */
export class RunDownload {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly extractor: Extractor,
    private readonly files: FileStore,
    private readonly workDirs: WorkDirs,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RunDownloadOptions,
  ) {}

  async handle(message: JobMessage, delivery: Delivery): Promise<WorkOutcome> {
    const { jobId } = message;
    const log = this.logger.child({ jobId, attempt: delivery.attempt });
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'NONE' || state.status === 'ABANDONED' || state.status === 'COMPLETED' || state.status === 'FAILED') return DONE;
    const context = workContext(message);
    if (delivery.attempt > this.options.maxAttempts) {
      await this.fail(message, 'NETWORK_ERROR', `Gave up after ${this.options.maxAttempts} interrupted attempts`);
      return DONE;
    }
    await this.jobs.handle(jobId, { type: 'StartJob', data: { jobId, attempt: delivery.attempt, now: this.now() } }, context);

    const { request } = state;
    const workDir = await this.workDirs.create(jobId);
    try {
      const media = await this.extractor.download({
        url: request.url,
        format: request.format,
        startTime: request.startTime ?? undefined,
        endTime: request.endTime ?? undefined,
        language: request.language ?? undefined,
        maxFileSizeBytes: request.maxFileSizeBytes,
        workDir,
        signal: delivery.signal,
        onProgress: () => delivery.heartbeat(),
      });
      const fileKey = `${request.accountId}/${jobId}.${media.extension}`;
      const stored = await this.files.put(fileKey, media.filePath);
      await this.jobs.handle(
        jobId,
        {
          type: 'CompleteJob',
          data: {
            jobId,
            fileKey,
            fileSize: stored.size,
            actualFormat: media.actualFormat,
            mimeType: media.mimeType,
            fileExtension: media.extension,
            now: this.now(),
          },
        },
        context,
      );
      log.info({ fileSize: stored.size, actualFormat: media.actualFormat }, 'download completed');
      return DONE;
    } catch (error) {
      const code = error instanceof ExtractionError ? error.code : null;
      const reason = error instanceof Error ? error.message : String(error);
      if (code !== null && isFinalErrorCode(code)) {
        log.info({ errorCode: code, reason }, 'download failed');
        await this.fail(message, code, reason);
        return DONE;
      }
      if (delivery.attempt >= this.options.maxAttempts) {
        log.warn({ errorCode: code, reason }, 'download failed; no attempts left');
        await this.fail(message, 'NETWORK_ERROR', reason);
        return DONE;
      }
      const afterMs = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (delivery.attempt - 1));
      log.warn({ errorCode: code, reason, retryInMs: afterMs }, 'download attempt failed; retrying');
      return { kind: 'retry', afterMs };
    } finally {
      await this.workDirs.remove(workDir);
    }
  }

  private async fail(message: JobMessage, errorCode: ExtractionError['code'], reason: string): Promise<void> {
    const { jobId } = message;
    await this.jobs.handle(jobId, { type: 'FailJob', data: { jobId, errorCode, reason, now: this.now() } }, workContext(message));
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
