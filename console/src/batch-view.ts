import type { Api } from './api.js';
import type { Batch } from './api-types.js';
import { byId, el } from './dom.js';
import { wait } from './wait.js';

const POLL_MS = 1_000;
const ENDED = new Set(['completed', 'partial', 'failed', 'cancelled']);

/** One batch (#/batches/<id>): its status and counts, each video with its job, read again until the batch ends. */
export class BatchView {
  private following = new AbortController();

  constructor(
    private readonly api: () => Api,
    private readonly onEnded: () => void,
  ) {}

  async open(batchId: string): Promise<void> {
    this.stop();
    const signal = this.following.signal;
    byId('batch-error').textContent = '';
    for (;;) {
      let batch: Batch;
      try {
        batch = await this.api().request<Batch>('GET', `/download-batch/${encodeURIComponent(batchId)}?limit=100`);
      } catch (error) {
        byId('batch-error').textContent = (error as Error).message;
        return;
      }
      if (signal.aborted) return;
      this.render(batch);
      if (ENDED.has(batch.status)) {
        this.onEnded();
        return;
      }
      await wait(POLL_MS, signal);
      if (signal.aborted) return;
    }
  }

  stop(): void {
    this.following.abort();
    this.following = new AbortController();
  }

  clear(): void {
    this.stop();
    for (const id of ['batch-fields', 'batch-actions', 'batch-videos']) byId(id).replaceChildren();
  }

  private render(batch: Batch): void {
    const counts = Object.entries(batch.counts)
      .filter(([, count]) => count > 0)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ');
    const fields: Array<[string, string]> = [
      ['Status', batch.status],
      ['Source', batch.source.url ?? 'a list of videos'],
      ['Format', batch.format],
      ['Videos', `${batch.totalVideos}${counts === '' ? '' : ` (${counts})`}`],
    ];
    if (batch.listingError !== null) fields.push(['Listing', batch.listingError]);
    byId('batch-fields').replaceChildren(
      ...fields.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
    );
    byId('batch-actions').replaceChildren(...this.actions(batch));
    byId('batch-videos').replaceChildren(
      ...batch.jobs.map((video) =>
        el(
          'li',
          { class: 'job', 'data-video-status': video.status },
          video.jobId === null
            ? el('span', { class: 'title' }, video.title ?? video.videoUrl)
            : el(
                'a',
                { class: 'title', href: `#/jobs/${encodeURIComponent(video.jobId)}` },
                video.title ?? video.videoUrl,
              ),
          el(
            'span',
            { class: 'meta' },
            video.refusal === null ? video.status : `${video.status}: ${video.refusal.message}`,
          ),
        ),
      ),
    );
  }

  private actions(batch: Batch): HTMLButtonElement[] {
    const path = `/download-batch/${encodeURIComponent(batch.batchId)}`;
    const action = (label: string, method: string, suffix: string) => {
      const button = el('button', { type: 'button' }, label);
      button.addEventListener('click', () => {
        button.disabled = true;
        this.api()
          .request(method, path + suffix)
          .then(() => this.open(batch.batchId))
          .catch((error: Error) => {
            byId('batch-error').textContent = error.message;
            button.disabled = false;
          });
      });
      return button;
    };
    if (!ENDED.has(batch.status)) return [action('Cancel batch', 'DELETE', '')];
    if (batch.status === 'partial' || batch.status === 'failed')
      return [action('Retry failed videos', 'POST', '/retry')];
    return [];
  }
}
