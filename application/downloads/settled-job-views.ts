import { NotifiedCache } from '../notified-cache.js';
import type { DownloadJobView } from '../ports/read-models.js';

/**
 * Views of finished jobs whose charge or release the account's read model already shows, kept in memory: such a view
 * never changes (its link is signed per poll, its file's deletion is answered by the file route), so a poll needs no
 * database round trip. As with the API key cache, a NotifiedCache: served only while the read model's change
 * notifications are trusted, each notification forgetting its job (`*` every job).
 */
export class SettledJobViews {
  private readonly cache: NotifiedCache<DownloadJobView>;

  constructor(maxEntries: number) {
    this.cache = new NotifiedCache(maxEntries);
  }

  get(jobId: string): DownloadJobView | undefined {
    return this.cache.get(jobId);
  }

  /** Taken before reading a view; `remember` stores the view only if nothing changed meanwhile. */
  ticket(): number {
    return this.cache.ticket();
  }

  remember(view: DownloadJobView, ticket: number): void {
    this.cache.remember(view.jobId, view, ticket);
  }

  /** A change notification: the job's id, or `*` for every job. */
  changed(jobId: string): void {
    if (jobId === '*') this.cache.forgetAll();
    else this.cache.forget(jobId);
  }

  trust(): void {
    this.cache.trust();
  }

  distrust(): void {
    this.cache.distrust();
  }
}
