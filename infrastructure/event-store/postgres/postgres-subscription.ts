import type { Checkpoint, Subscription, SubscriptionPage } from '../../../application/ports/event-store.js';
import type { GlobalPage } from './read-global-page.js';

type ReadPage = (after: Checkpoint | null, maxCount: number) => Promise<GlobalPage>;
type WaitForNews = (timeoutMs: number, signal: AbortSignal) => Promise<boolean>;

export interface PostgresSubscriptionOptions {
  after: Checkpoint | null;
  batchSize: number;
  pollIntervalMs: number;
}

/**
 * Reads pages after its position; when one comes back empty, waits for a
 * notification or the poll interval. A notified event can still be hidden
 * behind an older transaction that has not committed (the xmin gate), so
 * after a fruitless wake-up it looks again soon, backing off to the poll
 * interval.
 */
export class PostgresSubscription implements Subscription {
  private readonly stopped = new AbortController();

  constructor(
    private readonly readPage: ReadPage,
    private readonly waitForNews: WaitForNews,
    private readonly options: PostgresSubscriptionOptions,
    private readonly onClose: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionPage> {
    let after = this.options.after;
    let fruitlessReads = 0;
    try {
      while (!this.stopped.signal.aborted) {
        let page: GlobalPage;
        try {
          page = await this.readPage(after, this.options.batchSize);
        } catch (error) {
          // The store closing under a read ends the iteration; it is not a failure.
          if (this.stopped.signal.aborted) return;
          throw error;
        }
        if (this.stopped.signal.aborted) return;
        const moved = page.scannedTo !== after;
        after = page.scannedTo;
        if (page.events.length > 0) {
          fruitlessReads = 0;
          yield { events: page.events, scannedTo: page.scannedTo as Checkpoint };
          continue;
        }
        if (moved && after !== null) {
          // Read again at once: a notification that came while the consumer held the page woke nobody.
          yield { events: [], scannedTo: after };
          continue;
        }
        const delay = Math.min(this.options.pollIntervalMs, 2 ** (fruitlessReads + 1));
        const notified = await this.waitForNews(delay, this.stopped.signal);
        fruitlessReads = notified ? 0 : fruitlessReads + 1;
      }
    } finally {
      this.onClose();
    }
  }

  async close(): Promise<void> {
    this.stopped.abort();
    this.onClose();
  }
}
