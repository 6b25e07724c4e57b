import { isFinalErrorCode } from '../../domain/download-error-code.js';
import type { DownloadRequested } from '../../domain/download-job/events.js';
import { InvalidTransitionError, LeaseHeldError, LeaseLostError } from '../../domain/errors.js';
import type { CommandContext } from '../command-handler.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import { attemptFileKey, jobFilesPrefix } from '../downloads/job-file-keys.js';
import type { Clock } from '../ports/clock.js';
import type { ProgressReports } from '../ports/download-progress.js';
import { ExtractionError } from '../ports/extractor/extraction-error.js';
import type { DownloadedMedia, MediaDownloader } from '../ports/extractor/media-downloader.js';
import type { FileStore } from '../ports/file-store.js';
import type { Logger } from '../ports/logger.js';
import type { WorkDirs } from '../ports/work-dirs.js';
import { RunningDownloads } from './running-downloads.js';
import { progressFromExtractor } from './progress-from-extractor.js';
import { workContext } from './work-context.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

export interface RunDownloadDependencies {
  readonly jobs: DownloadJobCommandHandler;
  readonly extractor: MediaDownloader;
  readonly files: FileStore;
  readonly workDirs: WorkDirs;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: RunDownloadOptions;
  /** Where a cancellation finds this process's download of the job; a registry of its own by default. */
  readonly running?: RunningDownloads;
  /** Where clients' progress figures go; best effort, never awaited. None by default. */
  readonly progress?: ProgressReports;
}

/** One attempt at the job under this delivery's lease: what its steps share. */
interface Attempt {
  readonly message: JobMessage;
  readonly delivery: Delivery;
  /** The attempt's number, as the job's lease recorded it. */
  readonly number: number;
  readonly request: DownloadRequested['data'];
  /** Aborted when the job is cancelled or the delivery lapses. */
  readonly signal: AbortSignal;
  /** Aborted when the job is cancelled. */
  readonly cancelled: AbortSignal;
  /** Attempts that failed with a download error before this one. */
  readonly failedBefore: number;
  readonly log: Logger;
}

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
  private readonly jobs: DownloadJobCommandHandler;
  private readonly extractor: MediaDownloader;
  private readonly files: FileStore;
  private readonly workDirs: WorkDirs;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: RunDownloadOptions;
  private readonly running: RunningDownloads;
  private readonly progress: ProgressReports;

  constructor(dependencies: RunDownloadDependencies) {
    ({
      jobs: this.jobs,
      extractor: this.extractor,
      files: this.files,
      workDirs: this.workDirs,
      clock: this.clock,
      logger: this.logger,
      options: this.options,
    } = dependencies);
    this.running = dependencies.running ?? new RunningDownloads();
    this.progress = dependencies.progress ?? { report: () => undefined };
  }

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

  /** Reads the job, gives it up once its attempts ran out, takes its lease and makes one attempt. */
  private async run(message: JobMessage, delivery: Delivery, cancelled: AbortSignal): Promise<WorkOutcome> {
    const { jobId } = message;
    const log = this.logger.child({ jobId, delivery: delivery.attempt, leaseId: delivery.leaseId });
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'NONE' || state.status === 'ABANDONED' || state.status === 'COMPLETED') return DONE;
    // Cancelled (or failed) while no worker ran it: what earlier attempts stored is of no use now.
    if (state.status === 'FAILED') return this.removeAttemptFiles(message, log);
    const failedBefore = state.failedAttempts ?? 0;
    if (failedBefore >= this.options.maxAttempts) {
      await this.fail(message, 'NETWORK_ERROR', `Gave up after ${this.options.maxAttempts} failed attempts`);
      return this.removeAttemptFiles(message, log);
    }
    const number = await this.start(jobId, delivery, workContext(message), log);
    if (number === null) return DONE;
    const signal = delivery.signal === undefined ? cancelled : AbortSignal.any([delivery.signal, cancelled]);
    const { request } = state;
    return this.attempt({ message, delivery, number, request, signal, cancelled, failedBefore, log });
  }

  /** Takes the job's lease for this delivery: the attempt's number, or null when the job is not to be run here. */
  private async start(jobId: string, delivery: Delivery, context: CommandContext, log: Logger): Promise<number | null> {
    const { leaseId, messageId } = delivery;
    try {
      const started = await this.jobs.handle(
        jobId,
        { type: 'StartJob', data: { jobId, leaseId, messageId, now: this.now() } },
        context,
      );
      return started.state.status === 'IN_PROGRESS' ? started.state.attempts : null;
    } catch (error) {
      if (!(error instanceof LeaseHeldError)) throw error;
      log.warn({}, 'another worker holds the job; dropping this duplicate delivery');
      return null;
    }
  }

  /** Downloads into a work directory of its own, stores the file and completes the job, or handles what went wrong. */
  private async attempt(attempt: Attempt): Promise<WorkOutcome> {
    const { message, delivery, number, request } = attempt;
    const workDir = await this.workDirs.create(message.jobId);
    let fileKey: string | null = null;
    try {
      const media = await this.download(attempt, workDir);
      // A cancellation whose announcement never arrived (or a lapse) is found here, before a file nobody will get is uploaded.
      await this.assertStillHeld(message.jobId, delivery.leaseId);
      fileKey = attemptFileKey(request.accountId, message.jobId, number, media.extension);
      return await this.storeAndComplete(attempt, media, fileKey);
    } catch (error) {
      return await this.afterAttemptError(attempt, error, fileKey);
    } finally {
      await this.workDirs.remove(workDir);
    }
  }

  /** The extractor's download of the request; its progress keeps the delivery alive and reaches the clients. */
  private download({ message, delivery, request, signal }: Attempt, workDir: string): Promise<DownloadedMedia> {
    return this.extractor.download({
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
        this.progress.report(message.jobId, progressFromExtractor(update));
      },
      onWaiting: () => delivery.heartbeat(),
    });
  }

  /** Puts the file under this attempt's key, completes the job with it, and removes what other attempts left. */
  private async storeAndComplete(attempt: Attempt, media: DownloadedMedia, fileKey: string): Promise<WorkOutcome> {
    const { message, delivery, number, signal, log } = attempt;
    const { jobId } = message;
    const size = media.fileSize;
    this.progress.report(jobId, { stage: 'storing', downloadedBytes: size, totalBytes: size, percent: 100 });
    const storingAt = performance.now();
    const stored = await this.files.put(fileKey, media.filePath, { signal });
    const stageMs = { ...media.stageMs, store: Math.round(performance.now() - storingAt) };
    const { actualFormat, mimeType, extension: fileExtension } = media;
    await this.jobs.handle(
      jobId,
      {
        type: 'CompleteJob',
        data: {
          jobId,
          fileKey,
          fileSize: stored.size,
          actualFormat,
          mimeType,
          fileExtension,
          now: this.now(),
          leaseId: delivery.leaseId,
        },
      },
      workContext(message),
    );
    log.info({ fileSize: stored.size, actualFormat, attempt: number, stageMs }, 'download completed');
    return this.removeAttemptFiles(message, log, fileKey);
  }

  /**
   * A cancelled job keeps no file; an attempt taken over by another worker removes its own; a download error is
   * recorded; any other error (this service's own) is thrown for the queue to retry.
   */
  private async afterAttemptError(attempt: Attempt, error: unknown, fileKey: string | null): Promise<WorkOutcome> {
    const { message, log } = attempt;
    if (attempt.cancelled.aborted || error instanceof InvalidTransitionError) {
      // Cancelled: the job is FAILED already, and no file of any of its attempts will ever be served.
      await this.removeAttemptFiles(message, log);
      const reason = error instanceof Error ? error.message : String(error);
      log.info({ reason }, 'download stopped: the job was cancelled');
      return DONE;
    }
    if (error instanceof LeaseLostError) {
      log.warn({ attempt: attempt.number }, 'the job was taken over by another worker; discarding this attempt');
      if (fileKey !== null) await this.files.remove(fileKey).catch(() => undefined);
      return DONE;
    }
    if (!(error instanceof ExtractionError)) throw error;
    return await this.afterDownloadError(attempt, error);
  }

  /** A final error fails the job, as does the last attempt's; another is recorded and retried after a growing delay. */
  private async afterDownloadError(attempt: Attempt, error: ExtractionError): Promise<WorkOutcome> {
    const { message, log } = attempt;
    const { leaseId } = attempt.delivery;
    const failedAttempts = attempt.failedBefore + 1;
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
   * either way; the retention sweeper removes whatever is left. The job has then nothing left to do.
   */
  private async removeAttemptFiles(message: JobMessage, log: Logger, keep?: string): Promise<WorkOutcome> {
    try {
      const removed = await this.files.removeByPrefix(
        jobFilesPrefix(message.accountId, message.jobId),
        keep === undefined ? {} : { except: keep },
      );
      if (removed.length > 0) log.info({ removed }, 'removed the files of attempts that never completed');
    } catch (error) {
      log.warn({ err: error }, 'could not remove the files of other attempts; the retention sweeper will');
    }
    return DONE;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
