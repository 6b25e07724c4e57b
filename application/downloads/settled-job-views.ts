import type { DownloadJobView } from '../ports/read-models.js';

/**
 * Views of finished jobs whose charge or release the account's read model already shows, kept in memory: such a view
 * never changes (its link is signed per poll, its file's deletion is answered by the file route), so a poll needs no
 * database round trip. As with the API key cache, entries are served only while the read model's change notifications
 * cannot be missed (`trust()`); each notification forgets its job (`*` all), and a read that overlapped one is not
 * kept. The least recently polled entry makes room first.
 */
export class SettledJobViews {
  private readonly entries = new Map<string, DownloadJobView>();
  private trusted = false;
  /** Moves on at every change notification and change of trust. */
  private generation = 0;

  constructor(private readonly maxEntries: number) {}

  get(jobId: string): DownloadJobView | undefined {
    if (!this.trusted) return undefined;
    const view = this.entries.get(jobId);
    if (view !== undefined) {
      this.entries.delete(jobId);
      this.entries.set(jobId, view);
    }
    return view;
  }

  /** Taken before reading a view; `remember` stores the view only if nothing changed meanwhile. */
  ticket(): number {
    return this.generation;
  }

  remember(view: DownloadJobView, ticket: number): void {
    if (!this.trusted || ticket !== this.generation || this.maxEntries === 0) return;
    this.entries.set(view.jobId, view);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** A change notification: the job's id, or `*` for every job. */
  changed(jobId: string): void {
    this.generation += 1;
    if (jobId === '*') this.entries.clear();
    else this.entries.delete(jobId);
  }

  /** Changes are being reported from now on; what was kept before may have missed some. */
  trust(): void {
    this.generation += 1;
    this.entries.clear();
    this.trusted = true;
  }

  distrust(): void {
    this.generation += 1;
    this.trusted = false;
    this.entries.clear();
  }
}
