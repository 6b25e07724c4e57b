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
  /** Submissions whose outcome the client never learned (no answer): a job or a charge may exist that it cannot name. */
  readonly unknownOutcomes: Array<{ kind: JobKind | 'list-channel'; accountId: string; at: number }> = [];
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

  observe(job: TrackedJob, status: string, errorCode: string | null = null): void {
    job.status = status;
    job.errorCode = errorCode;
    if (this.isTerminal(job) && job.terminalAt === null) job.terminalAt = Date.now();
  }
}
