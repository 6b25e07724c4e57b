import { isFinalErrorCode } from '../../domain/download-error-code.js';
import { InvalidTransitionError, LeaseHeldError, LeaseLostError } from '../../domain/errors.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import { attemptFileKey, jobFilesPrefix } from '../downloads/job-file-keys.js';
import type { Clock } from '../ports/clock.js';
import type { ProgressReports } from '../ports/download-progress.js';
import { ExtractionError, type Extractor } from '../ports/extractor.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';
import type { WorkDirs } from '../ports/work-dirs.js';
import { RunningDownloads } from './running-downloads.js';
import { progressFromExtractor } from './progress-from-extractor.js';
import { workContext } from './work-context.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

export interface RunDownloadOptions {
  /** Attempts per job that may end in a download error worth retrying. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

/**
 * DownloadRequested -> StartJob (the worker's lease) -> extractor -> file store -> CompleteJob, or FailJob with the
 * extractor's code. Only a download error worth retrying spends one of the job's attempts (DownloadAttemptFailed);
 * when they run out the job fails with NETWORK_ERROR. This service's own failures (database, queue) are thrown, so
 * the queue retries the message without spending an attempt. The lease keeps one worker on a job: a duplicate
 * delivery does nothing, a redelivery takes the job over, and files are keyed per attempt, so a late worker never
 * overwrites the file of the one that took over.
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
    /** Where clients' progress figures go; best effort, never awaited. */
    private readonly progress: ProgressReports = { report: () => undefined },
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

  /** Takes the job's lease for this delivery: the attempt's number, or null when the job is not to be run here. */
  private async start(
    jobId: string,
    delivery: Delivery,
    context: ReturnType<typeof workContext>,
    log: Logger,
  ): Promise<number | null> {
    try {
      const started = await this.jobs.handle(
        jobId,
        {
          type: 'StartJob',
          data: { jobId, leaseId: delivery.leaseId, messageId: delivery.messageId, now: this.now() },
        },
        context,
      );
      return started.state.status === 'IN_PROGRESS' ? started.state.attempts : null;
    } catch (error) {
      if (!(error instanceof LeaseHeldError)) throw error;
      log.warn({}, 'another worker holds the job; dropping this duplicate delivery');
      return null;
    }
  }

  private async run(message: JobMessage, delivery: Delivery, cancelled: AbortSignal): Promise<WorkOutcome> {
    const { jobId } = message;
    const log = this.logger.child({ jobId, delivery: delivery.attempt, leaseId: delivery.leaseId });
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'NONE' || state.status === 'ABANDONED' || state.status === 'COMPLETED') return DONE;
    if (state.status === 'FAILED') {
      // Cancelled (or failed) while no worker ran it: what earlier attempts stored is of no use now.
      await this.removeAttemptFiles(message, log);
      return DONE;
    }
    const context = workContext(message);
    const { leaseId } = delivery;
    if ((state.failedAttempts ?? 0) >= this.options.maxAttempts) {
      await this.fail(message, 'NETWORK_ERROR', `Gave up after ${this.options.maxAttempts} failed attempts`);
      await this.removeAttemptFiles(message, log);
      return DONE;
    }
    const attempt = await this.start(jobId, delivery, context, log);
    if (attempt === null) return DONE;

    const { request } = state;
    const workDir = await this.workDirs.create(jobId);
    let fileKey: string | null = null;
    const signal = delivery.signal === undefined ? cancelled : AbortSignal.any([delivery.signal, cancelled]);
    try {
      const media = await this.extractor.download({
        url: request.videoUrl ?? request.url,
        format: request.format,
        startTime: request.startTime ?? undefined,
        endTime: request.endTime ?? undefined,
        language: request.language ?? undefined,
        maxFileSizeBytes: request.maxFileSizeBytes,
        workDir,
        signal,
        onProgress: (update) => {
          delivery.heartbeat();
          this.progress.report(jobId, progressFromExtractor(update));
        },
        onWaiting: () => delivery.heartbeat(),
      });
      // A cancellation whose announcement never arrived (or a lapse) is found here, before a file nobody will get is uploaded.
      await this.assertStillHeld(jobId, leaseId);
      this.progress.report(jobId, {
        stage: 'storing',
        downloadedBytes: media.fileSize,
        totalBytes: media.fileSize,
        percent: 100,
      });
      fileKey = attemptFileKey(request.accountId, jobId, attempt, media.extension);
      const storingAt = performance.now();
      const stored = await this.files.put(fileKey, media.filePath, { signal });
      const stageMs = { ...media.stageMs, store: Math.round(performance.now() - storingAt) };
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
            leaseId,
          },
        },
        context,
      );
      log.info({ fileSize: stored.size, actualFormat: media.actualFormat, attempt, stageMs }, 'download completed');
      await this.removeAttemptFiles(message, log, fileKey);
      return DONE;
    } catch (error) {
      if (cancelled.aborted || error instanceof InvalidTransitionError) {
        // Cancelled: the job is FAILED already, and no file of any of its attempts will ever be served.
        await this.removeAttemptFiles(message, log);
        log.info(
          { reason: error instanceof Error ? error.message : String(error) },
          'download stopped: the job was cancelled',
        );
        return DONE;
      }
      if (error instanceof LeaseLostError) {
        log.warn({ attempt }, 'the job was taken over by another worker; discarding this attempt');
        if (fileKey !== null) await this.files.remove(fileKey).catch(() => undefined);
        return DONE;
      }
      if (!(error instanceof ExtractionError)) throw error;
      return await this.afterDownloadError(message, leaseId, (state.failedAttempts ?? 0) + 1, error, log);
    } finally {
      await this.workDirs.remove(workDir);
    }
  }

  private async afterDownloadError(
    message: JobMessage,
    leaseId: string,
    failedAttempts: number,
    error: ExtractionError,
    log: Logger,
  ): Promise<WorkOutcome> {
    const { code, message: reason } = error;
    // The client reads `reason`, in the service's words; the extractor's own output is for the operator.
    const detail = error.details;
    try {
      if (code !== null && isFinalErrorCode(code)) {
        log.info({ errorCode: code, reason, detail }, 'download failed');
        await this.fail(message, code, reason, leaseId);
        await this.removeAttemptFiles(message, log);
        return DONE;
      }
      if (failedAttempts >= this.options.maxAttempts) {
        log.warn({ errorCode: code, reason, detail }, 'download failed; no attempts left');
        await this.fail(message, 'NETWORK_ERROR', reason, leaseId);
        await this.removeAttemptFiles(message, log);
        return DONE;
      }
      const { jobId } = message;
      await this.jobs.handle(
        jobId,
        { type: 'RecordAttemptFailure', data: { jobId, leaseId, errorCode: code, reason, now: this.now() } },
        workContext(message),
      );
    } catch (failure) {
      if (failure instanceof LeaseLostError) return DONE;
      throw failure;
    }
    const afterMs = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (failedAttempts - 1));
    log.warn({ errorCode: code, reason, detail, retryInMs: afterMs }, 'download attempt failed; retrying');
    return { kind: 'retry', afterMs };
  }

  /** Throws as completing would: the job has failed, or another delivery took it over. */
  private async assertStillHeld(jobId: string, leaseId: string): Promise<void> {
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'FAILED') throw new InvalidTransitionError(`Download job ${jobId} has ended FAILED`);
    if (state.status !== 'IN_PROGRESS' || (state.leaseId !== null && state.leaseId !== leaseId))
      throw new LeaseLostError(jobId);
  }

  private async fail(
    message: JobMessage,
    errorCode: ExtractionError['code'],
    reason: string,
    leaseId?: string,
  ): Promise<void> {
    const { jobId } = message;
    await this.jobs.handle(
      jobId,
      {
        type: 'FailJob',
        data: { jobId, errorCode, reason, now: this.now(), ...(leaseId === undefined ? {} : { leaseId }) },
      },
      workContext(message),
    );
  }

  /**
   * Once the job has ended, no attempt but the completed one (`keep`) will
   * ever be served: this removes the files of attempts whose worker died
   * between storing and completing. Best effort, since the job has ended
   * either way; the retention sweeper removes whatever is left.
   */
  private async removeAttemptFiles(message: JobMessage, log: Logger, keep?: string): Promise<void> {
    try {
      const removed = await this.files.removeByPrefix(
        jobFilesPrefix(message.accountId, message.jobId),
        keep === undefined ? {} : { except: keep },
      );
      if (removed.length > 0) log.info({ removed }, 'removed the files of attempts that never completed');
    } catch (error) {
      log.warn({ err: error }, 'could not remove the files of other attempts; the retention sweeper will');
    }
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
