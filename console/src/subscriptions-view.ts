import type { Api } from './api.js';
import type { Subscription, SubscriptionPage } from './api-types.js';
import { byId, el, show } from './dom.js';
import { clearFormErrors, showFormError, sourceField, whileSubmitting } from './form-errors.js';
import { formatDate } from './format.js';
import { copyFormatOptions } from './format-options.js';

const INPUTS = ['source', 'checkEveryMinutes'] as const;
const FIELD_OF = { channelUrl: 'source', playlistUrl: 'source', checkEveryMinutes: 'checkEveryMinutes' };
/** Checks run in the background: the list is read again this often while it shows. */
const REFRESH_MS = 5_000;

/** The account's subscriptions: a form to add one, and each with its last and next check, to pause, resume, check or delete. */
export class SubscriptionsView {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
  ) {
    copyFormatOptions('subscription-format');
    const form = byId<HTMLFormElement>('subscription-form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void whileSubmitting(form, () => this.subscribe(form));
    });
  }

  /** Shows the list now, and keeps it fresh until `stop`. */
  async start(): Promise<void> {
    this.stop();
    this.timer = setInterval(() => void this.reload(), REFRESH_MS);
    await this.reload();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  clear(): void {
    this.stop();
    byId('subscription-list').replaceChildren();
  }

  async reload(): Promise<void> {
    let page: SubscriptionPage;
    try {
      page = await this.api().request<SubscriptionPage>('GET', '/subscriptions?limit=100');
    } catch (error) {
      this.onError(`The subscriptions could not be listed: ${(error as Error).message}`);
      return;
    }
    byId('subscription-list').replaceChildren(...page.subscriptions.map((item) => this.row(item)));
    show(byId('subscriptions-empty'), page.subscriptions.length === 0);
  }

  private async subscribe(form: HTMLFormElement): Promise<void> {
    clearFormErrors('subscription', INPUTS);
    const data = new FormData(form);
    const source = String(data.get('source') ?? '').trim();
    const minutes = String(data.get('checkEveryMinutes') ?? '').trim();
    const body: Record<string, unknown> = { [sourceField(source)]: source, format: data.get('format') };
    if (minutes !== '') body.checkEveryMinutes = /^\d+$/.test(minutes) ? Number(minutes) : minutes;
    try {
      await this.api().request('POST', '/subscriptions', body);
      form.reset();
      this.onError('');
      await this.reload();
    } catch (error) {
      showFormError('subscription', FIELD_OF, error);
    }
  }

  private row(item: Subscription): HTMLLIElement {
    const id = encodeURIComponent(item.subscriptionId);
    const last = item.lastCheck;
    const lastText =
      last === null
        ? 'not checked yet'
        : `last checked ${formatDate(last.finishedAt)}: ${last.failure ?? `${last.found} new`}`;
    const pausedText = item.pause?.reason ? `paused: ${item.pause.reason}` : 'paused';
    const status =
      item.status === 'paused' ? pausedText : `next check ${formatDate(item.nextCheckAt ?? item.checkStartedAt)}`;
    const action = (label: string, run: () => Promise<unknown>) => {
      const button = el('button', { type: 'button', 'aria-label': `${label}: ${item.source.url}` }, label);
      button.addEventListener('click', () => {
        button.disabled = true;
        run()
          .then(() => this.reload())
          .catch((error: Error) => this.onError(error.message))
          .finally(() => {
            button.disabled = false;
          });
      });
      return button;
    };
    const paused = item.status === 'paused';
    return el(
      'li',
      { class: 'job subscription', 'data-subscription-id': item.subscriptionId },
      el('span', { class: 'title', title: item.source.url }, item.source.url),
      el('span', { class: 'meta' }, `${item.format} · every ${item.checkEveryMinutes} min · ${item.jobs.length} jobs`),
      el('span', { class: 'meta subscription-status' }, `${status} · ${lastText}`),
      el(
        'span',
        { class: 'row' },
        action(paused ? 'Resume' : 'Pause', () =>
          this.api().request('PATCH', `/subscriptions/${id}`, { paused: !paused }),
        ),
        paused ? null : action('Check now', () => this.api().request('POST', `/subscriptions/${id}/check`)),
        action('Delete', () => this.api().request('DELETE', `/subscriptions/${id}`)),
      ),
    );
  }
}
