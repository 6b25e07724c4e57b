import { type SeenBatchVideo, type TrackedBatch, batchIsTerminal } from './tracked-batch.js';
import type { TrackedSubscription } from './tracked-subscription.js';
import type { ReceiverKind } from './webhook-receivers.js';

export type JobKind = 'download' | 'info' | 'client-download';
export type LookupKind = 'info' | 'client-download' | 'list-channel';

export interface TrackedJob {
  kind: JobKind;
  jobId: string;
  accountId: string;
  key: string;
  webhook: ReceiverKind | null;
  submittedAt: number;
  /** A cancel the service answered 200: the job must end FAILED, uncharged. */
  cancelled: boolean;
  /** A cancel was sent, answered or not: the job may end FAILED. */
  cancelSent: boolean;
  status: string | null;
  terminalAt: number | null;
  canary: boolean;
  /** What the fixture video makes of it: a job of a working video must succeed unless a fault or a cancel hit it. */
  expected: 'success' | 'failure';
  /** The failure's `errorCode` as the service answered it, when it failed. */
  errorCode: string | null;
}

export const SUCCESS: Record<JobKind, string> = {
  download: 'COMPLETED',
  info: 'success',
  'client-download': 'success',
};

const TERMINAL: Record<JobKind, string[]> = {
  download: ['COMPLETED', 'FAILED'],
  info: ['success', 'failed'],
  'client-download': ['success', 'failed'],
};

/** What the soak submitted and what became of it, from the client's side. */
export class JobLedger {
  readonly jobs: TrackedJob[] = [];
  readonly batches: TrackedBatch[] = [];
  readonly subscriptions: TrackedSubscription[] = [];
  /** Submissions whose outcome the client never learned (no answer): a job or a charge may exist that it cannot name. */
  /** A batch's entry may stand for as many download jobs as it had videos (`jobs`). */
  readonly unknownOutcomes: Array<{
    kind: JobKind | 'list-channel' | 'batch';
    accountId: string;
    at: number;
    jobs?: number;
  }> = [];
  /** Per account, channel listings answered 200. */
  readonly listings = new Map<string, number>();
  /** Submissions refused by the service, by status. */
  readonly refusals = new Map<string, number>();

  add(job: Omit<TrackedJob, 'cancelled' | 'cancelSent' | 'status' | 'terminalAt' | 'errorCode'>): TrackedJob {
    const tracked: TrackedJob = {
      ...job,
      cancelled: false,
      cancelSent: false,
      status: null,
      terminalAt: null,
      errorCode: null,
    };
    this.jobs.push(tracked);
    return tracked;
  }

  refused(what: string, status: number): void {
    const key = `${what} ${status}`;
    this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
  }

  listed(accountId: string): void {
    this.listings.set(accountId, (this.listings.get(accountId) ?? 0) + 1);
  }

  isTerminal(job: TrackedJob): boolean {
    return job.status !== null && TERMINAL[job.kind].includes(job.status);
  }

  pending(): TrackedJob[] {
    return this.jobs.filter((job) => !this.isTerminal(job));
  }

  pendingBatches(): TrackedBatch[] {
    return this.batches.filter((batch) => !batchIsTerminal(batch));
  }

  /** What a poll of the batch answered; each job of it the client has not tracked yet is tracked from now on. */
  observeBatch(batch: TrackedBatch, status: string, seen: SeenBatchVideo[]): void {
    batch.status = status;
    batch.seen = seen;
    for (const video of seen) {
      if (video.jobId === null || this.jobs.some((job) => job.jobId === video.jobId)) continue;
      const expected = batch.videos.find((submitted) => submitted.url === video.videoUrl)?.expected ?? 'success';
      this.add({
        kind: 'download',
        jobId: video.jobId,
        accountId: batch.accountId,
        key: batch.key,
        webhook: null,
        submittedAt: batch.submittedAt,
        canary: false,
        expected,
      });
    }
  }

  observe(job: TrackedJob, status: string, errorCode: string | null = null): void {
    job.status = status;
    job.errorCode = errorCode;
    if (this.isTerminal(job) && job.terminalAt === null) job.terminalAt = Date.now();
  }
}
