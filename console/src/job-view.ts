import { type Api, ApiError } from './api.js';
import { type Job, type WebhookAttempt, isTerminal } from './api-types.js';
import { cancelledJobs } from './cancelled-jobs.js';
import { byId, el } from './dom.js';
import { followJob } from './follow-job.js';
import { formatBytes, formatCount, formatDate, formatDuration, shownStatus } from './format.js';
import { jobProgress } from './job-progress.js';
import { wait } from './wait.js';

const WEBHOOK_REFRESH_MS = 5_000;
const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;
/** An attempt still under way has no answer yet (and no next attempt either): the delivery has not ended. */
const underWay = (attempt: WebhookAttempt) => attempt.statusCode === null && attempt.error === null;
const deliveryEnded = (last: WebhookAttempt) =>
  isSuccess(last.statusCode) || (!underWay(last) && last.nextAttemptAt === null);

/** One job: its fields, live progress, download link, webhook history and a cancel button while it is unfinished. */
export class JobView {
  private following = new AbortController();
  /** The job as last shown, and whether its cancel waits for a confirmation. */
  private shown: Job | null = null;
  private confirmingCancel = false;

  constructor(
    private readonly api: () => Api,
    private readonly onJobEnded: () => void,
  ) {}

  async open(jobId: string): Promise<void> {
    this.clear();
    this.following = new AbortController();
    const signal = this.following.signal;
    let job: Job;
    try {
      job = await this.api().request<Job>('GET', `/download/${encodeURIComponent(jobId)}`);
    } catch (error) {
      byId('job-error').textContent = (error as Error).message;
      return;
    }
    if (signal.aborted) return;
    this.render(job);
    void this.watchWebhookAttempts(jobId, signal);
    if (!isTerminal(job)) {
      void followJob(
        this.api(),
        jobId,
        (update) => {
          if (signal.aborted) return;
          this.render(update);
          if (isTerminal(update)) this.onJobEnded();
        },
        signal,
      );
    }
  }

  stop(): void {
    this.following.abort();
  }

  /** Stops following and leaves nothing of the job on the page. */
  clear(): void {
    this.stop();
    this.shown = null;
    this.confirmingCancel = false;
    byId('job-error').textContent = '';
    byId('job-title').textContent = 'Job';
    byId('job-title').removeAttribute('title');
    byId('job-fields').replaceChildren();
    byId('job-progress').replaceChildren();
    byId('job-actions').replaceChildren();
    byId('webhook-attempts').replaceChildren();
  }

  private render(job: Job): void {
    this.shown = job;
    // Cut to a few lines by the style sheet; the whole title shows on hover.
    byId('job-title').textContent = job.title;
    byId('job-title').title = job.title;
    byId('job-progress').replaceChildren(jobProgress(job, 'job-status-detail'));
    const rows: [string, string | Node][] = [
      ['Job id', job.jobId],
      ['Status', shownStatus(job) === 'CANCELLED' ? 'FAILED (cancelled)' : job.status],
      ['Video', el('a', { href: job.url, rel: 'noreferrer noopener', target: '_blank' }, job.url)],
      ['Duration', formatDuration(job.duration)],
      [
        'Format',
        job.actualFormat !== undefined && job.actualFormat !== job.format
          ? `${job.format} (delivered as ${job.actualFormat})`
          : job.format,
      ],
      ['Language', job.language ?? 'original audio'],
      ['Submitted', formatDate(job.createdAt)],
      ['Started', formatDate(job.startedAt)],
      ['Ended', formatDate(job.completedAt)],
    ];
    if (job.fileSize !== undefined) rows.push(['File size', formatBytes(job.fileSize)]);
    if (job.errorCode !== undefined) rows.push(['Error', job.errorCode]);
    byId('job-fields').replaceChildren(...rows.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]));
    const actions: Node[] = [];
    if (job.downloadUrl !== undefined)
      actions.push(el('a', { href: job.downloadUrl, download: true, id: 'download-link' }, 'Download the file'));
    if (!isTerminal(job)) actions.push(...this.cancelControls(job.jobId));
    // Progress redraws the actions: whichever of them had the focus keeps it.
    const actionsBox = byId('job-actions');
    const focused = actionsBox.contains(document.activeElement) ? document.activeElement?.id : undefined;
    actionsBox.replaceChildren(...actions);
    if (focused) document.getElementById(focused)?.focus();
  }

  /** "Cancel this job", then a question with "Yes, cancel it" and "No, keep it": a cancel cannot be undone. */
  private cancelControls(jobId: string): Node[] {
    const redraw = (focus: string) => {
      if (this.shown !== null) this.render(this.shown);
      document.getElementById(focus)?.focus();
    };
    if (!this.confirmingCancel) {
      const cancel = el('button', { type: 'button', class: 'secondary', id: 'cancel-job' }, 'Cancel this job');
      cancel.addEventListener('click', () => {
        this.confirmingCancel = true;
        redraw('confirm-cancel');
      });
      return [cancel];
    }
    const question = el('span', { id: 'cancel-question' }, 'Cancel this job? It stops for good.');
    const confirm = el(
      'button',
      { type: 'button', id: 'confirm-cancel', 'aria-describedby': 'cancel-question' },
      'Yes, cancel it',
    );
    const keep = el('button', { type: 'button', class: 'secondary', id: 'keep-job' }, 'No, keep it');
    confirm.addEventListener('click', () => void this.cancel(jobId, confirm));
    keep.addEventListener('click', () => {
      this.confirmingCancel = false;
      redraw('cancel-job');
    });
    return [question, confirm, keep];
  }

  private async cancel(jobId: string, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    byId('job-error').textContent = '';
    try {
      const cancelled = await this.api().request<Job>('DELETE', `/download/${encodeURIComponent(jobId)}`);
      cancelledJobs.add(jobId);
      this.confirmingCancel = false;
      // The answer is the job's end; a poll under way may still bring an older view, which must not replace it.
      this.stop();
      this.following = new AbortController();
      this.render(cancelled);
      this.onJobEnded();
      void this.watchWebhookAttempts(jobId, this.following.signal);
    } catch (error) {
      byId('job-error').textContent = (error as Error).message;
      button.disabled = false;
    }
  }

  /** The history, looked at again every few seconds while the page is open, until the delivery has ended. */
  private async watchWebhookAttempts(jobId: string, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const attempts = await this.showWebhookAttempts(jobId, signal);
      const last = attempts?.at(-1);
      if (attempts === null || (last !== undefined && deliveryEnded(last))) return;
      await wait(WEBHOOK_REFRESH_MS, signal);
    }
  }

  /** Shows the history; null when it cannot be had. */
  private async showWebhookAttempts(jobId: string, signal: AbortSignal): Promise<WebhookAttempt[] | null> {
    const target = byId('webhook-attempts');
    let attempts: WebhookAttempt[];
    try {
      attempts = (
        await this.api().request<{ attempts: WebhookAttempt[] }>(
          'GET',
          `/download/${encodeURIComponent(jobId)}/webhook-attempts`,
        )
      ).attempts;
    } catch (error) {
      if (!signal.aborted)
        target.replaceChildren(
          el('p', {}, error instanceof ApiError ? `Not available: ${error.message}` : 'Not available.'),
        );
      return null;
    }
    if (signal.aborted) return null;
    if (attempts.length === 0) {
      target.replaceChildren(el('p', {}, 'None: this job has no webhook, or none was due yet.'));
      return attempts;
    }
    const head = el(
      'tr',
      {},
      ...['#', 'Time', 'Answer', 'Duration', 'Next attempt'].map((name) => el('th', { scope: 'col' }, name)),
    );
    const body = attempts.map((attempt) =>
      el(
        'tr',
        {},
        el('td', {}, String(attempt.attempt)),
        el('td', {}, formatDate(attempt.at)),
        el('td', {}, attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? 'under way')),
        el('td', {}, `${formatCount(attempt.durationMs)} ms`),
        el('td', {}, formatDate(attempt.nextAttemptAt)),
      ),
    );
    target.replaceChildren(
      el(
        'div',
        { class: 'table-scroll' },
        el(
          'table',
          {},
          el('caption', { class: 'hint' }, 'Webhook delivery attempts'),
          el('thead', {}, head),
          el('tbody', {}, ...body),
        ),
      ),
    );
    return attempts;
  }
}
