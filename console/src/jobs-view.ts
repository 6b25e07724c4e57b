import type { Api } from './api.js';
import { type Job, type JobPage, isTerminal } from './api-types.js';
import { byId, el, show } from './dom.js';
import { followJob } from './follow-job.js';
import { formatDate } from './format.js';
import { jobProgress } from './job-progress.js';

const PAGE_SIZE = 20;

/** GET /downloads, newest first, a page at a time; each unfinished job's row follows it live. */
export class JobsView {
  private rows = new Map<string, HTMLLIElement>();
  private following = new AbortController();
  private cursor: string | null = null;

  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
    private readonly onJobEnded: () => void,
  ) {
    byId('more-jobs').addEventListener('click', () => void this.loadPage());
    byId('status-filter').addEventListener('change', () => void this.reload());
  }

  async reload(): Promise<void> {
    this.stop();
    this.following = new AbortController();
    this.rows.clear();
    byId('job-list').replaceChildren();
    this.cursor = null;
    await this.loadPage();
  }

  stop(): void {
    this.following.abort();
  }

  /** Stops following and leaves no job on the page (after signing out). */
  clear(): void {
    this.stop();
    this.rows.clear();
    this.cursor = null;
    byId('job-list').replaceChildren();
    show(byId('more-jobs'), false);
    show(byId('jobs-empty'), false);
  }

  /**
   * A job just submitted goes on top at once, read by its id: the list is
   * read from a view the service brings up to date a moment later.
   */
  async addSubmitted(jobId: string): Promise<void> {
    const signal = this.following.signal;
    try {
      const job = await this.api().request<Job>('GET', `/download/${encodeURIComponent(jobId)}`);
      if (!signal.aborted) this.add(job, signal, 'top');
    } catch (error) {
      this.onError(`The new job could not be shown: ${(error as Error).message}`);
    }
  }

  private async loadPage(): Promise<void> {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    const status = byId<HTMLSelectElement>('status-filter').value;
    if (status !== '') query.set('status', status);
    if (this.cursor !== null) query.set('cursor', this.cursor);
    const signal = this.following.signal;
    let page: JobPage;
    try {
      page = await this.api().request<JobPage>('GET', `/downloads?${query}`);
    } catch (error) {
      this.onError(`The jobs could not be listed: ${(error as Error).message}`);
      return;
    }
    if (signal.aborted) return;
    for (const job of page.jobs) this.add(job, signal);
    this.cursor = page.nextCursor;
    show(byId('more-jobs'), page.nextCursor !== null);
    show(byId('jobs-empty'), this.rows.size === 0);
  }

  private add(job: Job, signal: AbortSignal, where: 'top' | 'bottom' = 'bottom'): void {
    if (this.rows.has(job.jobId)) return;
    const row = el('li', { class: 'job', 'data-job-id': job.jobId });
    this.rows.set(job.jobId, row);
    if (where === 'top') byId('job-list').prepend(row);
    else byId('job-list').append(row);
    show(byId('jobs-empty'), false);
    this.render(job);
    if (!isTerminal(job)) {
      void followJob(
        this.api(),
        job.jobId,
        (update) => {
          const ended = isTerminal(update);
          this.render(update);
          if (ended) this.onJobEnded();
        },
        signal,
      );
    }
  }

  private render(job: Job): void {
    const row = this.rows.get(job.jobId);
    if (row === undefined) return;
    const labelId = `job-status-${job.jobId}`;
    row.replaceChildren(
      // Cut to one line by the style sheet; the whole title shows on hover.
      el('a', { class: 'title', href: `#/jobs/${encodeURIComponent(job.jobId)}`, title: job.title }, job.title),
      el('span', { class: 'meta' }, `${job.format} · submitted ${formatDate(job.createdAt)}`),
      jobProgress(job, labelId),
    );
  }
}
