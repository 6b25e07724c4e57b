import type { Checkpoint, Subscription, SubscriptionPage } from '../../../application/ports/event-store.js';
import type { GlobalPage } from './read-global-page.js';

type ReadPage = (after: Checkpoint | null, maxCount: number) => Promise<GlobalPage>;
type WaitForNews = (timeoutMs: number, signal: AbortSignal) => Promise<boolean>;

export interface PostgresSubscriptionOptions {
  after: Checkpoint | null;
  batchSize: number;
  /** The slowest poll while a notification is recent (it may name an event still hidden behind an older transaction). */
  pollIntervalMs: number;
  /**
   * The slowest poll once no notification came for a while. Notifications are
   * not lost (a dropped LISTEN connection wakes every waiter), so it only
   * bounds how long an event hidden behind a transaction running for more
   * than `RECENT_NEWS_MS` can wait. Default 30 s, and never below `pollIntervalMs`.
   */
  idlePollMs?: number;
}

/** How long after a notification hidden events are looked for at the fast pace. */
const RECENT_NEWS_MS = 10_000;
const DEFAULT_IDLE_POLL_MS = 30_000;

/**
 * Reads pages after its position; when one comes back empty, waits for a
 * notification or the poll interval. A notified event can still be hidden
 * behind an older transaction that has not committed (the xmin gate), so
 * after a fruitless wake-up it looks again soon, backing off to the poll
 * interval; when no notification came for a while it backs off further, to
 * the idle poll, so an idle service reads next to nothing.
 */
export class PostgresSubscription implements Subscription {
  private readonly stopped = new AbortController();
  /** Ends the wait under way early; set only while waiting. */
  private wakeEarly: AbortController | null = null;
  private nudged = false;

  constructor(
    private readonly readPage: ReadPage,
    private readonly waitForNews: WaitForNews,
    private readonly options: PostgresSubscriptionOptions,
    private readonly onClose: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionPage> {
    let after = this.options.after;
    let fruitlessReads = 0;
    let lastNews = Number.NEGATIVE_INFINITY;
    const idlePollMs = Math.max(this.options.pollIntervalMs, this.options.idlePollMs ?? DEFAULT_IDLE_POLL_MS);
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
          lastNews = Date.now();
          yield { events: page.events, scannedTo: page.scannedTo as Checkpoint };
          continue;
        }
        if (moved && after !== null) {
          // Read again at once: a notification that came while the consumer held the page woke nobody.
          yield { events: [], scannedTo: after };
          continue;
        }
        if (this.nudged) {
          this.nudged = false;
          continue;
        }
        const slowest = Date.now() - lastNews < RECENT_NEWS_MS ? this.options.pollIntervalMs : idlePollMs;
        this.wakeEarly = new AbortController();
        const notified = await this.waitForNews(
          Math.min(slowest, 2 ** (fruitlessReads + 1)),
          AbortSignal.any([this.stopped.signal, this.wakeEarly.signal]),
        );
        this.wakeEarly = null;
        if (this.nudged) {
          this.nudged = false;
          continue;
        }
        fruitlessReads = notified ? 0 : fruitlessReads + 1;
        if (notified) lastNews = Date.now();
      }
    } finally {
      this.onClose();
    }
  }

  nudge(): void {
    this.nudged = true;
    this.wakeEarly?.abort();
  }

  async close(): Promise<void> {
    this.stopped.abort();
    this.onClose();
  }
}
