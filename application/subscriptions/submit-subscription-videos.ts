import {
  AccountRefusedError,
  CreditLimitReachedError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../../domain/errors.js';
import type { SubmissionRefusalCode, SubscriptionVideoSubmitted } from '../../domain/subscription/events.js';
import type { LiveSubscriptionState } from '../../domain/subscription/state.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import { PENDING_DOWNLOADS_LIMIT, type SubmitDownload } from '../downloads/submit-download.js';
import { VideoNotDownloadableError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { type SubscriptionCommandHandler, subscriptionCorrelation } from './subscription-commands.js';

export interface SubmitSubscriptionVideosDependencies {
  readonly subscriptions: SubscriptionCommandHandler;
  readonly accounts: AccountCommandHandler;
  readonly jobs: DownloadJobCommandHandler;
  /** The ordinary submission, writing the job under the id the subscription chose for it. */
  readonly submitDownload: (jobId: string) => SubmitDownload;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

type SubmittedVideo = SubscriptionVideoSubmitted['data'];

/**
 * Turns the videos a check found into ordinary download jobs, one per free
 * pending slot of the account: the subscription records each video's job id
 * first (so it never takes the video again), then the job is written under
 * it with the same checks, reservation and charge as `POST /download`. A job
 * refused is told to the subscription, which lets the video wait for the next
 * check (pending limit) or pauses itself (credit).
 */
export class SubmitSubscriptionVideos {
  constructor(private readonly deps: SubmitSubscriptionVideosDependencies) {}

  async submitFound(subscriptionId: string): Promise<void> {
    const { state: before } = await this.deps.subscriptions.load(subscriptionId);
    if (before.status !== 'active' || before.queue.every((video) => video.waitsForCheck)) return;
    const { state: account } = await this.deps.accounts.load(before.created.accountId);
    const freeSlots = Math.max(0, PENDING_DOWNLOADS_LIMIT - account.pendingJobs.length);
    const jobIds = Array.from({ length: Math.min(freeSlots, before.queue.length) }, () => this.deps.ids.next());
    const { events, state } = await this.deps.subscriptions.handle(
      subscriptionId,
      { type: 'SubmitVideos', data: { subscriptionId, freeSlots, jobIds, now: this.now() } },
      subscriptionCorrelation(subscriptionId),
    );
    if (state.status === 'none') return;
    for (const event of events) if (event.type === 'SubscriptionVideoSubmitted') await this.writeJob(state, event.data);
  }

  /** Writes the video's job once: a job already written, or a video no longer submitted under it, is left alone. */
  async writeJob(state: LiveSubscriptionState, video: SubmittedVideo): Promise<void> {
    if (state.submitted[video.videoId]?.jobId !== video.jobId || Object.hasOwn(state.refused, video.videoId)) return;
    const { state: existing } = await this.deps.jobs.load(video.jobId);
    if (existing.status !== 'NONE') return;
    const { subscriptionId, accountId, webhookUrl } = state.created;
    const { format, language } = state.settings;
    try {
      await this.deps.submitDownload(video.jobId).execute({
        accountId,
        url: video.videoUrl,
        videoUrl: video.videoUrl,
        format,
        ...(language === null ? {} : { language }),
        ...(webhookUrl === null ? {} : { webhookUrl }),
        correlationId: subscriptionCorrelation(subscriptionId).correlationId,
      });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === null) throw error;
      await this.deps.subscriptions.handle(
        subscriptionId,
        {
          type: 'RefuseSubmission',
          data: { subscriptionId, videoId: video.videoId, jobId: video.jobId, ...refusal, now: this.now() },
        },
        subscriptionCorrelation(subscriptionId),
      );
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** The refusal a subscription records; null for a passing failure, thrown so that the event is tried again. */
function refusalOf(error: unknown): { code: SubmissionRefusalCode; message: string } | null {
  if (error instanceof PendingDownloadsLimitError) return { code: 'PENDING_LIMIT', message: error.message };
  if (error instanceof CreditLimitReachedError) return { code: 'CREDIT_LIMIT_REACHED', message: error.message };
  if (error instanceof AccountRefusedError) return { code: 'ACCOUNT_REFUSED', message: error.message };
  if (error instanceof VideoNotDownloadableError) return { code: error.code, message: error.message };
  if (error instanceof RuleViolationError) return { code: 'RULE_VIOLATION', message: error.message };
  return null;
}
