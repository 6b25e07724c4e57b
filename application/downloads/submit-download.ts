import { BYTES_PER_MB } from '../../domain/account/bandwidth.js';
import type { ReserveDownload } from '../../domain/account/commands.js';
import { decideAccount } from '../../domain/account/decide.js';
import { rememberedSubmission } from '../../domain/account/idempotency.js';
import type { AccountState } from '../../domain/account/state.js';
import { JobAbandonedError, RuleViolationError } from '../../domain/errors.js';
import { hasNoDownloadOptOut } from '../../domain/no-download-opt-out.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import { ExtractorUnavailableError, SubmissionsBusyError, VideoNotDownloadableError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import { ExtractionError } from '../ports/extractor/extraction-error.js';
import type { VideoMetadata } from '../ports/extractor/video-prober.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { submissionHash } from './submission-hash.js';
import type { SubmitDownloadInput } from './submit-download-input.js';
import { LookupQueueFullError, type VideoLookup } from './video-lookup.js';

export type { SubmitDownloadInput } from './submit-download-input.js';

export interface SubmitDownloadOutput {
  jobId: string;
  title: string;
  duration: number;
  status: 'IN_QUEUE';
  message: string;
}

/** The contract's limit on an account's downloads queued or in progress; batches' and subscriptions' jobs count too. */
export const PENDING_DOWNLOADS_LIMIT = 100;

/**
 * Admits a download: limits first (so a refused request never reaches the
 * platform), then the video's metadata and the rules that need it, then the
 * reservation on the account stream (the race-free check) and the job stream.
 * Submissions of an account still being admitted in this process count
 * toward its limits in the first check, so a burst beyond the limit is
 * refused before any of it reaches the platform.
 */
export class SubmitDownload {
  /** Job ids being admitted, per account: counted as pending until their reservation is written or refused. */
  private readonly admitting = new Map<string, Set<string>>();

  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly jobs: DownloadJobCommandHandler,
    private readonly videos: VideoLookup,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: SubmitDownloadInput): Promise<SubmitDownloadOutput> {
    if (input.startTime !== undefined && input.endTime !== undefined && input.endTime <= input.startTime) {
      throw new RuleViolationError('endTime must be greater than startTime');
    }
    const jobId = this.ids.next();
    const idempotency =
      input.idempotencyKey === undefined
        ? undefined
        : { key: input.idempotencyKey, requestHash: submissionHash(input) };
    const reserve = (): ReserveDownload => ({
      type: 'ReserveDownload',
      data: { jobId, pendingLimit: PENDING_DOWNLOADS_LIMIT, now: this.now(), idempotency },
    });
    const { state: account } = await this.accounts.load(input.accountId);
    // Taken after the await and added to with none in between: a set fetched before it could have been dropped from
    // the map meanwhile (emptied by another admission's end), and what was added to it then counted for nobody.
    const admitting = this.admitting.get(input.accountId) ?? new Set<string>();
    this.admitting.set(input.accountId, admitting);
    try {
      // A dry run of the reservation, counting the account's other admissions under way: throws the limit errors the real one
      // would, and the key-reuse error; a repeat of a remembered request is answered as the first one was.
      const pendingJobs = [...new Set([...account.pendingJobs, ...admitting])];
      const dryRun = decideAccount(reserve(), { ...account, pendingJobs });
      if (dryRun.length === 0 && idempotency !== undefined)
        return await this.answerAgain(account, idempotency.key, null, input);
      admitting.add(jobId);
      return await this.admit(jobId, input, pendingJobs.length, reserve, idempotency?.key);
    } finally {
      admitting.delete(jobId);
      // Only this set: once it was emptied and dropped, the map may hold a newer one, with admissions under way.
      if (admitting.size === 0 && this.admitting.get(input.accountId) === admitting)
        this.admitting.delete(input.accountId);
    }
  }

  private async admit(
    jobId: string,
    input: SubmitDownloadInput,
    pendingNow: number,
    reserve: () => ReserveDownload,
    idempotencyKey: string | undefined,
  ): Promise<SubmitDownloadOutput> {
    const video = await this.lookUp(input, pendingNow);
    checkDownloadable(video, input);

    const context = { correlationId: input.correlationId ?? jobId };
    const reservation = await this.accounts.handle(input.accountId, reserve(), context);
    // A concurrent repeat reserved first; the account stream decided which one won.
    if (reservation.events.length === 0 && idempotencyKey !== undefined)
      return this.answerAgain(reservation.state, idempotencyKey, video, input);
    await this.createJob(jobId, input, video, reservation.state, context);
    return queuedAnswer(jobId, video);
  }

  /** Writes the job's stream; a repeat for the same job id changes nothing, and one after the orphan releaser abandoned it throws JobAbandonedError. */
  private async createJob(
    jobId: string,
    input: SubmitDownloadInput,
    video: VideoMetadata,
    account: AccountState,
    context: { correlationId: string },
  ): Promise<void> {
    const maxFileSizeMb = account.plan?.maxFileSizeMb ?? 0;
    await this.jobs.handle(
      jobId,
      {
        type: 'SubmitDownload',
        data: {
          jobId,
          accountId: input.accountId,
          url: input.url,
          videoUrl: input.videoUrl,
          format: input.format,
          startTime: input.startTime ?? null,
          endTime: input.endTime ?? null,
          language: input.language ?? null,
          webhookUrl: input.webhookUrl ?? null,
          title: video.title,
          duration: video.duration,
          maxFileSizeBytes: maxFileSizeMb * BYTES_PER_MB,
          now: this.now(),
        },
      },
      context,
    );
  }

  /**
   * The answer the first submission under this key got, from its job. When its job stream was never written (the first
   * submission died between the reservation and the job, or is still writing it), the repeat writes the job itself, with
   * the remembered id and the same request: the job stream decides against the orphan releaser, so the answer names a job
   * that exists, or JobAbandonedError tells the client to submit again.
   */
  private async answerAgain(
    account: AccountState,
    key: string,
    video: VideoMetadata | null,
    input: SubmitDownloadInput,
  ): Promise<SubmitDownloadOutput> {
    const remembered = rememberedSubmission(account, key, Date.parse(this.now()));
    if (remembered === null) throw new Error(`Idempotency-Key ${key} is not remembered`);
    const jobId = remembered.jobId;
    const { state: job } = await this.jobs.load(jobId);
    if (job.status === 'ABANDONED') throw new JobAbandonedError(jobId);
    if (job.status !== 'NONE') return queuedAnswer(jobId, job.request);
    const looked = video ?? (await this.lookUp(input, account.pendingJobs.length));
    if (video === null) checkDownloadable(looked, input);
    await this.createJob(jobId, input, looked, account, { correlationId: input.correlationId ?? jobId });
    return queuedAnswer(jobId, looked);
  }

  private async lookUp(input: SubmitDownloadInput, pendingNow: number): Promise<VideoMetadata> {
    try {
      return await this.videos.lookup(input.videoUrl, input.accountId);
    } catch (error) {
      if (error instanceof LookupQueueFullError)
        throw new SubmissionsBusyError(error.scope, error.retryAfterSeconds, pendingNow, PENDING_DOWNLOADS_LIMIT);
      if (error instanceof ExtractionError && error.code !== null && error.code !== 'NETWORK_ERROR') {
        throw new VideoNotDownloadableError(error.code, error.message, error.details);
      }
      throw unavailable(error);
    }
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

function queuedAnswer(jobId: string, video: { title: string; duration: number }): SubmitDownloadOutput {
  return {
    jobId,
    title: video.title,
    duration: video.duration,
    status: 'IN_QUEUE',
    message: `Download queued. Poll GET /download/${jobId} until the status is COMPLETED or FAILED.`,
  };
}

function checkDownloadable(video: VideoMetadata, input: SubmitDownloadInput): void {
  if (video.liveStatus === 'is_live') {
    throw new VideoNotDownloadableError(
      'LIVE_STREAM_IN_PROGRESS',
      'The live stream is still in progress; submit it again after it ends',
    );
  }
  if (video.liveStatus === 'is_upcoming') {
    throw new VideoNotDownloadableError(
      'VIDEO_PREMIERE',
      'The video has not aired yet; submit it again after it starts',
    );
  }
  if (hasNoDownloadOptOut(video.tags)) {
    throw new VideoNotDownloadableError('NO_DOWNLOAD_OPT_OUT', 'The creator opted out of downloads for this video');
  }
  const { startTime, endTime } = input;
  if (startTime !== undefined && startTime >= video.duration) {
    throw new RuleViolationError(`startTime must be less than the video's duration (${video.duration} s)`);
  }
  if (endTime !== undefined && endTime > video.duration) {
    throw new RuleViolationError(`endTime must not exceed the video's duration (${video.duration} s)`);
  }
}

/** A passing failure, in the extractor's words for what happened; its own output rides along for the log. */
function unavailable(error: unknown): ExtractorUnavailableError {
  if (!(error instanceof ExtractionError))
    return new ExtractorUnavailableError('The video lookup failed; retry after a short backoff');
  return new ExtractorUnavailableError(error.message, error.details ?? error.message);
}
