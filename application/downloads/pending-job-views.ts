import { NotifiedCache } from '../notified-cache.js';
import type { DownloadJobView } from '../ports/read-models.js';

interface KeptView {
  view: DownloadJobView;
  keptAtMs: number;
}

/** A fold of one job's stream under way, which polls arriving meanwhile join unless its job changed since it began. */
interface FoldUnderWay {
  view: Promise<DownloadJobView | null>;
  jobChanged: boolean;
}

interface PendingJobViewsOptions {
  maxEntries: number;
  /**
   * Past this age a kept view is folded again in the background, and served until that fold ends: a bound on
   * staleness should a change ever go unannounced.
   */
  maxAgeMs: number;
  nowMs?: () => number;
}

/**
 * Views of queued and running jobs, folded from their streams and kept in memory, so the poll clients make most needs
 * no database round trip. Served only while the process follows the job streams (`serveWhile`): every status event
 * it hears, and every append this process makes, forgets its job at once, so the next poll folds the stream again.
 * When the streams cannot be followed (the store out of reach), nothing is served and polls read the store.
 * One fold a job at a time: polls that miss together wait for the same fold, so a burst costs one read of the stream.
 */
export class PendingJobViews {
  private readonly cache: NotifiedCache<KeptView>;
  private readonly folds = new Map<string, FoldUnderWay>();
  private followingStretch: () => number | null = () => null;
  private servedStretch: number | null = null;

  constructor(private readonly options: PendingJobViewsOptions) {
    this.cache = new NotifiedCache(options.maxEntries);
  }

  /**
   * Serves kept views while `followingStretch` names an unbroken stretch of following the job streams (null when
   * not following). Until called, nothing is kept: a process that does not follow them would miss their changes.
   */
  serveWhile(followingStretch: () => number | null): void {
    this.followingStretch = followingStretch;
  }

  /** Whether kept views may be served now; a poll that finds not reads the store. */
  get serving(): boolean {
    const stretch = this.followingStretch();
    // Changes may have gone unheard across an outage, even one no poll saw: whatever was kept before it goes.
    if (stretch !== this.servedStretch) {
      this.servedStretch = stretch;
      if (stretch === null) this.cache.distrust();
      else this.cache.trust();
      this.forgetFoldsUnderWay();
    }
    return stretch !== null;
  }

  /**
   * The job's view while serving: kept, or from `fold` (its stream folded, null for no such job), which is kept if
   * the job is queued or running and no change of it was heard meanwhile. Undefined when not serving: read the store.
   */
  async view(jobId: string, fold: () => Promise<DownloadJobView | null>): Promise<DownloadJobView | null | undefined> {
    if (!this.serving) return undefined;
    const kept = this.cache.get(jobId);
    if (kept === undefined) return this.foldOnce(jobId, fold);
    if (this.now() - kept.keptAtMs > this.options.maxAgeMs)
      // Dropped if it fails, so the next poll folds on its own path and answers with what went wrong.
      this.foldOnce(jobId, fold).catch(() => this.cache.drop(jobId));
    return kept.view;
  }

  /** A change of the job (its id), or of every job (`*`). */
  changed(jobId: string): void {
    if (jobId === '*') {
      this.cache.forgetAll();
      this.forgetFoldsUnderWay();
      return;
    }
    // Other jobs' folds under way stay worth keeping: only this job's may have read the stream before its change.
    this.cache.drop(jobId);
    const underWay = this.folds.get(jobId);
    if (underWay !== undefined) underWay.jobChanged = true;
  }

  private foldOnce(jobId: string, fold: () => Promise<DownloadJobView | null>): Promise<DownloadJobView | null> {
    const underWay = this.folds.get(jobId);
    if (underWay !== undefined && !underWay.jobChanged) return underWay.view;
    // Moves on when trust changes or every job changed, so a fold from before either is not kept.
    const ticket = this.cache.ticket();
    const started: FoldUnderWay = { view: fold(), jobChanged: false };
    this.folds.set(jobId, started);
    started.view = started.view
      .then((view) => {
        if (view !== null && !started.jobChanged) this.remember(view, ticket);
        return view;
      })
      .finally(() => {
        if (this.folds.get(jobId) === started) this.folds.delete(jobId);
      });
    return started.view;
  }

  /** Keeps a queued or running job's view; a finished job's goes through the settlement check instead. */
  private remember(view: DownloadJobView, ticket: number): void {
    if (view.status !== 'IN_QUEUE' && view.status !== 'IN_PROGRESS') return;
    if (!this.serving) return;
    this.cache.remember(view.jobId, { view, keptAtMs: this.now() }, ticket);
  }

  private forgetFoldsUnderWay(): void {
    for (const underWay of this.folds.values()) underWay.jobChanged = true;
  }

  private now(): number {
    return this.options.nowMs?.() ?? Date.now();
  }
}
