import { CREDIT_LIMIT_REFUSAL, type BatchRefusal } from '../../domain/batch/refusal.js';
import type { RequestedBatchState } from '../../domain/batch/state.js';
import {
  AccountRefusedError,
  CreditLimitReachedError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../../domain/errors.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import { PENDING_DOWNLOADS_LIMIT, type SubmitDownload } from '../downloads/submit-download.js';
import { VideoNotDownloadableError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';
import type { BatchJobIndex, IndexedBatchJob } from './batch-job-index.js';

export interface AdmitBatchVideosDependencies {
  readonly batches: BatchCommandHandler;
  readonly accounts: AccountCommandHandler;
  readonly jobs: DownloadJobCommandHandler;
  /** The ordinary submission, writing the job under the id the batch chose for it. */
  readonly submitDownload: (jobId: string) => SubmitDownload;
  readonly index: BatchJobIndex;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/**
 * Fills the account's free pending slots from its batches: first the jobs
 * admitted earlier but not written (the slot was taken meanwhile by another
 * submission), then the next waiting videos of its oldest open batches. Each
 * video becomes an ordinary download job, with the same checks, reservation
 * and charge; one refused is recorded as the batch's refusal, in the words a
 * single submission would have got.
 */
export class AdmitBatchVideos {
  constructor(private readonly deps: AdmitBatchVideosDependencies) {}

  async admit(accountId: string): Promise<void> {
    const open = await this.deps.index.openBatches(accountId);
    const unsubmitted = await this.deps.index.unsubmitted(accountId);
    if (open.length === 0 && unsubmitted.length === 0) return;
    const { state: account } = await this.deps.accounts.load(accountId);
    let free = PENDING_DOWNLOADS_LIMIT - account.pendingJobs.length;
    for (const job of unsubmitted) {
      if (free <= 0) return;
      const { state } = await this.deps.batches.load(job.batchId);
      if (state.status !== 'none' && (await this.submit(state, job))) free -= 1;
    }
    for (const batchId of open) {
      if (free <= 0) return;
      free -= await this.admitFrom(batchId, free);
    }
  }

  /** Admits up to `free` waiting videos of the batch and writes their jobs; the slots used. */
  private async admitFrom(batchId: string, free: number): Promise<number> {
    const jobIds = Array.from({ length: free }, () => this.deps.ids.next());
    const { events, state } = await this.deps.batches.handle(
      batchId,
      { type: 'AdmitVideos', data: { batchId, freeSlots: free, jobIds, now: this.now() } },
      batchCorrelation(batchId),
    );
    if (state.status === 'none') return 0;
    if (events.length === 0 && state.videos?.every((video) => video.status !== 'waiting') !== false)
      await this.deps.index.markClosed(batchId);
    let used = 0;
    for (const event of events) {
      if (event.type !== 'BatchVideoAdmitted') continue;
      const { jobId, videoUrl, accountId } = event.data;
      const job = { jobId, batchId, accountId, videoUrl };
      await this.deps.index.remember(job);
      if (await this.submit(state, job)) used += 1;
    }
    return used;
  }

  /**
   * Writes the admitted video's job, once: a job already written is only
   * noted. False when the account's pending limit was reached meanwhile (the
   * job is written with a later free slot); a passing failure is thrown.
   */
  async submit(batch: RequestedBatchState, job: IndexedBatchJob): Promise<boolean> {
    const { state: existing } = await this.deps.jobs.load(job.jobId);
    if (existing.status !== 'NONE') {
      await this.deps.index.markSubmitted(job.jobId);
      return existing.status !== 'ABANDONED';
    }
    const video = batch.videos?.find((candidate) => candidate.videoUrl === job.videoUrl);
    if (video?.status !== 'admitted' || video.jobId !== job.jobId) {
      await this.deps.index.markSubmitted(job.jobId);
      return false;
    }
    const { accountId, format, language, webhookUrl, batchId } = batch.request;
    try {
      await this.deps.submitDownload(job.jobId).execute({
        accountId,
        url: job.videoUrl,
        videoUrl: job.videoUrl,
        format,
        ...(language === null ? {} : { language }),
        ...(webhookUrl === null ? {} : { webhookUrl }),
        correlationId: batchCorrelation(batchId).correlationId,
      });
    } catch (error) {
      if (error instanceof PendingDownloadsLimitError) return false;
      const refusal = refusalOf(error);
      if (refusal === null) throw error;
      await this.refuse(batchId, job, refusal);
      return false;
    }
    await this.deps.index.markSubmitted(job.jobId);
    return true;
  }

  private async refuse(batchId: string, job: IndexedBatchJob, refusal: BatchRefusal): Promise<void> {
    await this.deps.batches.handle(
      batchId,
      { type: 'RefuseVideo', data: { batchId, videoUrl: job.videoUrl, now: this.now(), ...refusal } },
      batchCorrelation(batchId),
    );
    await this.deps.index.markSubmitted(job.jobId);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** What a single submission refused for good would have answered; null for a passing failure. */
function refusalOf(error: unknown): BatchRefusal | null {
  if (error instanceof CreditLimitReachedError) return CREDIT_LIMIT_REFUSAL;
  if (error instanceof AccountRefusedError) return { code: 'ACCOUNT_REFUSED', message: error.message };
  if (error instanceof VideoNotDownloadableError) return { code: error.code, message: error.message };
  if (error instanceof RuleViolationError) return { code: 'RULE_VIOLATION', message: error.message };
  return null;
}
