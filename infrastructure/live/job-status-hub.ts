import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import type { ChargeVisibility } from '../../application/accounts/charge-visibility.js';
import { downloadJobBeforeSettlement } from '../../application/downloads/download-job-before-settlement.js';
import { downloadJobViewFromState } from '../../application/downloads/download-job-view.js';
import type { DownloadProgress } from '../../application/ports/download-progress.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import type { DownloadJobView } from '../../application/ports/read-models.js';
import type { Broadcast } from '../../application/ports/work-queue.js';
import { LatestProgress } from './latest-progress.js';
import { readProgressMessage } from './progress-message.js';
import { StoreFollower } from './store-follower.js';

/** One Server-Sent Event of a job, rendered once and written to every stream watching it. */
export interface JobFrame {
  id: number;
  accountId: string;
  terminal: boolean;
  text: string;
}

export type FrameListener = (frame: JobFrame) => void;

export interface Watching {
  /** The newest frame of the job now; null when there is no such job. */
  latest(): JobFrame | null;
  stop(): void;
}

interface WatchedJob {
  listeners: Set<FrameListener>;
  revision: number;
  view: DownloadJobView | null;
  viewJson: string;
  progressSeq: number;
  frame: JobFrame | null;
  /** Reloads run one after another, so frames leave in the order of the stream. */
  reloading: Promise<void>;
  /** Finished, but shown as under way until `GET /me` shows its charge or release. */
  awaitingSettlement: boolean;
  settlementChecks: number;
  /** Loads that failed in a row; the next is tried after a pause that grows with them. */
  loadFailures: number;
}

/** Events that can change a job's body; webhook and file events cannot. */
const STATUS_EVENT_TYPES = [
  'DownloadStarted',
  'DownloadAttemptFailed',
  'DownloadCompleted',
  'DownloadFailed',
  'DownloadAbandoned',
];
const SETTLEMENT_RECHECK_FIRST_MS = 50;
const SETTLEMENT_RECHECK_MAX_MS = 2_000;
const RELOAD_RETRY_FIRST_MS = 200;
const RELOAD_RETRY_MAX_MS = 5_000;

/** Frame ids: the stream revision, then the progress reports since, so ids only grow and status ids agree across processes. */
const PROGRESS_SLOTS = 100_000;

/**
 * Per API process: follows the job streams from the store (one subscription,
 * whatever the number of watchers) and the workers' progress broadcasts, and
 * hands each watched job's new body to its watchers. A status change is
 * folded from the job's own stream, never from the read model, which lags.
 */
export class JobStatusHub {
  private readonly watched = new Map<string, WatchedJob>();
  private readonly statusChangeListeners = new Set<(jobId: string) => void>();
  readonly progress = new LatestProgress();
  private follower: StoreFollower | null = null;
  private progressListening: { stop(): Promise<void> } | null = null;

  constructor(
    private readonly deps: {
      store: EventStore;
      jobs: DownloadJobCommandHandler;
      progressChannel: Broadcast;
      render: (view: DownloadJobView, progress: DownloadProgress | undefined) => Record<string, unknown>;
      logger: Logger;
      /** When given, a finished job is shown only once `GET /me` shows its charge or release, as a poll does. */
      charges?: ChargeVisibility;
    },
  ) {}

  async start(): Promise<void> {
    this.follower = new StoreFollower({
      name: 'live job status',
      store: this.deps.store,
      after: await this.deps.store.headPosition(),
      filter: { streamPrefixes: ['download-'], eventTypes: STATUS_EVENT_TYPES },
      onEvents: (events) => {
        for (const event of events) this.onStatusEvent(String(event.data.jobId));
      },
      logger: this.deps.logger,
    });
    this.follower.start();
    this.progressListening = this.deps.progressChannel.subscribe((message) => this.onProgress(message));
  }

  async stop(): Promise<void> {
    await this.progressListening?.stop();
    await this.follower?.stop();
  }

  /** False while the job streams cannot be followed (the store is out of reach): watchers would miss changes. */
  get following(): boolean {
    return this.follower?.following ?? false;
  }

  /** Which unbroken stretch of following the job streams this is, or null while not following them (see StoreFollower). */
  get followingStretch(): number | null {
    return this.follower?.followingStretch ?? null;
  }

  /** Calls `listener` with the id of every job whose status event the hub hears, watched or not, as it hears it. */
  onStatusChange(listener: (jobId: string) => void): () => void {
    this.statusChangeListeners.add(listener);
    return () => this.statusChangeListeners.delete(listener);
  }

  /** Starts handing `listener` the job's frames; `latest()` gives the one to send first. Throws when the job cannot be read. */
  async watch(jobId: string, listener: FrameListener): Promise<Watching> {
    let job = this.watched.get(jobId);
    if (job === undefined) {
      job = {
        listeners: new Set(),
        revision: -1,
        view: null,
        viewJson: '',
        progressSeq: 0,
        frame: null,
        reloading: Promise.resolve(),
        awaitingSettlement: false,
        settlementChecks: 0,
        loadFailures: 0,
      };
      this.watched.set(jobId, job);
      // The first load's failure reaches the watcher (a 500, not a 404); later reloads log theirs and are tried again.
      job.reloading = this.load(jobId, job);
    }
    const watchedJob = job;
    watchedJob.listeners.add(listener);
    const stop = () => {
      watchedJob.listeners.delete(listener);
      if (watchedJob.listeners.size === 0 && this.watched.get(jobId) === watchedJob) this.watched.delete(jobId);
    };
    try {
      await watchedJob.reloading;
    } catch (error) {
      stop();
      throw error;
    }
    return { latest: () => watchedJob.frame, stop };
  }

  private onStatusEvent(jobId: string): void {
    // Whatever the change, a report heard before it belongs to the attempt before it.
    this.progress.forget(jobId);
    for (const listener of this.statusChangeListeners) listener(jobId);
    const job = this.watched.get(jobId);
    if (job !== undefined) this.reload(jobId, job);
  }

  private reload(jobId: string, job: WatchedJob): void {
    job.reloading = job.reloading
      .catch(() => undefined)
      .then(() => this.load(jobId, job))
      .then(
        () => {
          job.loadFailures = 0;
        },
        (error: unknown) => {
          // No later event may come (the job may have just finished): its watchers get this change once the store answers.
          job.loadFailures += 1;
          this.deps.logger.warn({ err: error, jobId }, 'could not load a watched job; trying again');
          this.reloadLater(jobId, job, Math.min(RELOAD_RETRY_MAX_MS, RELOAD_RETRY_FIRST_MS * 2 ** job.loadFailures));
        },
      );
  }

  private reloadLater(jobId: string, job: WatchedJob, delayMs: number): void {
    setTimeout(() => {
      if (this.watched.get(jobId) === job) this.reload(jobId, job);
    }, delayMs).unref();
  }

  private async load(jobId: string, job: WatchedJob): Promise<void> {
    const { state, revision } = await this.deps.jobs.load(jobId);
    if (revision < job.revision || (revision === job.revision && !job.awaitingSettlement)) return;
    const folded = downloadJobViewFromState(state);
    const settled = folded === null || (await this.settlementShown(folded));
    const view = settled || folded === null ? folded : downloadJobBeforeSettlement(folded);
    job.awaitingSettlement = !settled;
    if (settled) job.settlementChecks = 0;
    else this.loadAgainLater(jobId, job);
    // A job shown again at the same revision (its settlement now visible) takes the next id, so ids keep growing.
    const sameRevision = revision === job.revision;
    job.revision = revision;
    const viewJson = JSON.stringify(view);
    if (viewJson === job.viewJson) return;
    job.view = view;
    job.viewJson = viewJson;
    job.progressSeq = sameRevision ? job.progressSeq + 1 : 0;
    if (view?.status !== 'IN_PROGRESS') this.progress.forget(jobId);
    this.emit(job, view?.status === 'IN_PROGRESS' ? this.progress.of(jobId) : undefined);
  }

  private async settlementShown(view: DownloadJobView): Promise<boolean> {
    const finished = view.status === 'COMPLETED' || view.status === 'FAILED';
    return (
      !finished || this.deps.charges === undefined || (await this.deps.charges.isVisible(view.accountId, view.jobId))
    );
  }

  /** The charge lands on the account stream, which this hub does not follow: look again, less often each time. */
  private loadAgainLater(jobId: string, job: WatchedJob): void {
    const delay = Math.min(SETTLEMENT_RECHECK_MAX_MS, SETTLEMENT_RECHECK_FIRST_MS * 2 ** job.settlementChecks);
    job.settlementChecks += 1;
    this.reloadLater(jobId, job, delay);
  }

  private onProgress(message: unknown): void {
    const read = readProgressMessage(message);
    if (read === null) return;
    this.progress.record(read.jobId, read.progress);
    const job = this.watched.get(read.jobId);
    if (job === undefined || job.view?.status !== 'IN_PROGRESS' || job.progressSeq >= PROGRESS_SLOTS - 1) return;
    job.progressSeq += 1;
    this.emit(job, read.progress);
  }

  private emit(job: WatchedJob, progress: DownloadProgress | undefined): void {
    const { view } = job;
    if (view === null) {
      job.frame = null;
      return;
    }
    const id = (job.revision + 1) * PROGRESS_SLOTS + job.progressSeq;
    const body = this.deps.render(view, progress);
    const terminal = view.status === 'COMPLETED' || view.status === 'FAILED';
    job.frame = {
      id,
      accountId: view.accountId,
      terminal,
      text: `id: ${id}\nevent: job\ndata: ${JSON.stringify(body)}\n\n`,
    };
    for (const listener of job.listeners) listener(job.frame);
  }
}
