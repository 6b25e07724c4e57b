import { isFinalErrorCode } from '../../domain/download-error-code.js';
import { InvalidTransitionError } from '../../domain/errors.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import { ExtractionError, type Extractor } from '../ports/extractor.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';
import type { WorkDirs } from '../ports/work-dirs.js';
import { RunningDownloads } from './running-downloads.js';
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
    /** Where a cancellation finds this process's download of the job. */
    private readonly running: RunningDownloads = new RunningDownloads(),
  ) {}

  async handle(message: JobMessage, delivery: Delivery): Promise<WorkOutcome> {
    // Tracked before the job is read, so a cancellation from then on reaches this run.
    const cancellation = this.running.track(message.jobId);
    try {
      return await this.run(message, delivery, cancellation.signal);
    } catch (error) {
      // The job was cancelled (or otherwise finished) under this run: nothing is left to do.
      if (error instanceof InvalidTransitionError) return DONE;
      throw error;
    } finally {
      cancellation.done();
    }
  }

  private async run(message: JobMessage, delivery: Delivery, cancelled: AbortSignal): Promise<WorkOutcome> {
    const { jobId } = message;
    const log = this.logger.child({ jobId, attempt: delivery.attempt });
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'NONE' || state.status === 'COMPLETED' || state.status === 'FAILED') return DONE;
    const context = { correlationId: jobId };
    if (delivery.attempt > this.options.maxAttempts) {
      await this.fail(jobId, 'NETWORK_ERROR', `Gave up after ${this.options.maxAttempts} interrupted attempts`);
      return DONE;
    }
    await this.jobs.handle(jobId, { type: 'StartJob', data: { jobId, attempt: delivery.attempt, now: this.now() } }, context);

    const { request } = state;
    const workDir = await this.workDirs.create(jobId);
    let storedKey: string | null = null;
    try {
      const media = await this.extractor.download({
        url: request.url,
        format: request.format,
        startTime: request.startTime ?? undefined,
        endTime: request.endTime ?? undefined,
        language: request.language ?? undefined,
        maxFileSizeBytes: request.maxFileSizeBytes,
        workDir,
        signal: delivery.signal === undefined ? cancelled : AbortSignal.any([delivery.signal, cancelled]),
        onProgress: () => delivery.heartbeat(),
      });
      const fileKey = `${request.accountId}/${jobId}.${media.extension}`;
      const stored = await this.files.put(fileKey, media.filePath);
      storedKey = fileKey;
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
      if (cancelled.aborted || error instanceof InvalidTransitionError) {
        // Cancelled: the job is FAILED already, and a file stored meanwhile would never be served.
        if (storedKey !== null) await this.files.remove(storedKey);
        log.info({ reason: error instanceof Error ? error.message : String(error) }, 'download stopped: the job was cancelled');
        return DONE;
      }
      const code = error instanceof ExtractionError ? error.code : null;
      const reason = error instanceof Error ? error.message : String(error);
      if (code !== null && isFinalErrorCode(code)) {
        log.info({ errorCode: code, reason }, 'download failed');
        await this.fail(jobId, code, reason);
        return DONE;
      }
      if (delivery.attempt >= this.options.maxAttempts) {
        log.warn({ errorCode: code, reason }, 'download failed; no attempts left');
        await this.fail(jobId, 'NETWORK_ERROR', reason);
        return DONE;
      }
      const afterMs = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (delivery.attempt - 1));
      log.warn({ errorCode: code, reason, retryInMs: afterMs }, 'download attempt failed; retrying');
      return { kind: 'retry', afterMs };
    } finally {
      await this.workDirs.remove(workDir);
    }
  }

  private async fail(jobId: string, errorCode: ExtractionError['code'], reason: string): Promise<void> {
    await this.jobs.handle(jobId, { type: 'FailJob', data: { jobId, errorCode, reason, now: this.now() } }, { correlationId: jobId });
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
