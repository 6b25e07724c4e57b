import type { Checkpoint, Subscription, SubscriptionPage } from '../../../application/ports/event-store.js';
import type { NewsMark } from './category-news.js';
import type { GlobalPage } from './read-global-page.js';

type ReadPage = (after: Checkpoint | null, maxCount: number) => Promise<GlobalPage>;
/** The news a subscription hears: `mark` before a read, and `wait`, which returns at once when news came since. */
export interface SubscriptionNews {
  mark(): NewsMark;
  wait(timeoutMs: number, signal: AbortSignal, since: NewsMark): Promise<boolean>;
}

export interface PostgresSubscriptionOptions {
  after: Checkpoint | null;
  batchSize: number;
  /**
   * The slowest poll while the last read saw events held back behind an older
   * transaction still running, and shortly after news.
   */
  pollIntervalMs: number;
  /**
   * The slowest poll otherwise. Notifications are not lost (a dropped LISTEN
   * connection wakes every waiter), so it only bounds how long an append whose
   * process died between its commit and its notification waits when no later
   * append is notified. Default 30 s, and never below `pollIntervalMs`.
   */
  idlePollMs?: number;
}

/**
 * How long after news a subscription still looks at the poll interval: an append committed in the same burst by a
 * process that died before notifying is found then, not at the idle poll.
 */
const RECENT_NEWS_MS = 3_000;
const DEFAULT_IDLE_POLL_MS = 30_000;

/**
 * Reads pages after its position; when one comes back empty, waits for a
 * notification or the poll interval. A notified event can still be held back
 * behind an older transaction that has not committed (the xmin gate), which
 * may never notify: while the reads see events held back, it looks again soon,
 * backing off to the poll interval. Otherwise it waits for the next
 * notification, polling for a few seconds after news and then only at the
 * idle poll, so an idle service reads next to nothing.
 */
export class PostgresSubscription implements Subscription {
  private readonly stopped = new AbortController();
  /** Ends the wait under way early; set only while waiting. */
  private wakeEarly: AbortController | null = null;
  private nudged = false;

  constructor(
    private readonly readPage: ReadPage,
    private readonly news: SubscriptionNews,
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
        // News that comes while the read is under way may name an event the read's snapshot missed.
        const readStarted = this.news.mark();
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
        this.wakeEarly = new AbortController();
        const notified = await this.news.wait(
          this.nextWaitMs(page, fruitlessReads, lastNews, idlePollMs),
          AbortSignal.any([this.stopped.signal, this.wakeEarly.signal]),
          readStarted,
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

  /** Soon while events are held back (backing off from 2 ms), at the poll interval shortly after news, else idle. */
  private nextWaitMs(page: GlobalPage, fruitlessReads: number, lastNews: number, idlePollMs: number): number {
    const { pollIntervalMs } = this.options;
    if (page.eventsHeldBack) return Math.min(pollIntervalMs, 2 ** (fruitlessReads + 1));
    return Date.now() - lastNews < RECENT_NEWS_MS ? pollIntervalMs : idlePollMs;
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
