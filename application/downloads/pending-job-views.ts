import { NotifiedCache } from '../notified-cache.js';
import type { DownloadJobView } from '../ports/read-models.js';

interface KeptView {
  view: DownloadJobView;
  keptAtMs: number;
}

interface PendingJobViewsOptions {
  maxEntries: number;
  /** Past this age a kept view is folded again: a bound on staleness should a change ever go unannounced. */
  maxAgeMs: number;
  nowMs?: () => number;
}

/**
 * Views of queued and running jobs, folded from their streams and kept in memory, so the poll clients make most needs
 * no database round trip. Served only while the process follows the job streams (`serveWhile`): every status event
 * it hears, and every append this process makes, forgets its job at once, so the next poll folds the stream again.
 * When the streams cannot be followed (the store out of reach), nothing is served and polls read the store.
 */
export class PendingJobViews {
  private readonly cache: NotifiedCache<KeptView>;
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
    }
    return stretch !== null;
  }

  get(jobId: string): DownloadJobView | undefined {
    if (!this.serving) return undefined;
    const kept = this.cache.get(jobId);
    if (kept === undefined) return undefined;
    if (this.now() - kept.keptAtMs > this.options.maxAgeMs) {
      this.cache.drop(jobId);
      return undefined;
    }
    return kept.view;
  }

  /** Taken before folding a stream; `remember` keeps the view only if no change of any job was heard meanwhile. */
  ticket(): number {
    return this.cache.ticket();
  }

  /** Keeps a queued or running job's view; a finished job's goes through the settlement check instead. */
  remember(view: DownloadJobView, ticket: number): void {
    if (view.status !== 'IN_QUEUE' && view.status !== 'IN_PROGRESS') return;
    if (!this.serving) return;
    this.cache.remember(view.jobId, { view, keptAtMs: this.now() }, ticket);
  }

  /** A change of the job (its id), or of every job (`*`). */
  changed(jobId: string): void {
    if (jobId === '*') this.cache.forgetAll();
    else this.cache.forget(jobId);
  }

  private now(): number {
    return this.options.nowMs?.() ?? Date.now();
  }
}
