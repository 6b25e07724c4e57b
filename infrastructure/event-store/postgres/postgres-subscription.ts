import type { Checkpoint, Subscription, SubscriptionPage } from '../../../application/ports/event-store.js';
import type { HeardNews, NewsMark } from './category-news.js';
import type { GlobalPage } from './read-global-page.js';

type ReadPage = (after: Checkpoint | null, maxCount: number) => Promise<GlobalPage>;

/** The news one subscription hears, of the categories its filter can match (interesting) or of others. */
export interface SubscriptionNews {
  mark(): NewsMark;
  heardSince(since: NewsMark): HeardNews;
  /** True at interesting news; false after `timeoutMs`, within `otherNewsWaitMs` of other news, or on abort. */
  wait(timeoutMs: number, signal: AbortSignal, otherNewsWaitMs: number): Promise<boolean>;
}

export interface PostgresSubscriptionOptions {
  after: Checkpoint | null;
  batchSize: number;
  /**
   * The slowest poll while the last read saw events held back behind an older transaction still running; also how
   * soon news of other categories moves a filtered subscription's position on.
   */
  pollIntervalMs: number;
  /**
   * The slowest poll otherwise. Notifications are not lost while a LISTEN
   * connection is open (losing it wakes every waiter); only an append whose
   * process died between its commit and its notification goes unannounced, and
   * the next news of any category, or this poll, finds it. Default 30 s, and
   * never below `pollIntervalMs`.
   */
  idlePollMs?: number;
}

const DEFAULT_IDLE_POLL_MS = 30_000;

/**
 * Reads pages after its position, and reads again when there is reason to:
 * at once after a full page or news of the categories it follows (news heard
 * while it read counts, from a mark taken before the read); within the poll
 * interval after news of other categories, so that a filtered subscription's
 * position keeps up with the store's; soon, backing off from 2 ms, while its
 * reads see events held back behind an older transaction (the xmin gate),
 * which may end without any notification; otherwise only at the idle poll,
 * so a quiet store is read next to never.
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
    let heldBackReads = 0;
    try {
      while (!this.stopped.signal.aborted) {
        const readStarted = this.news.mark();
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
        if (page.events.length > 0 || (moved && after !== null)) {
          yield { events: page.events, scannedTo: after as Checkpoint };
          if (page.events.length >= this.options.batchSize) continue;
        }
        heldBackReads = page.eventsHeldBack ? heldBackReads + 1 : 0;
        if (this.takeNudge()) continue;
        const heard = this.news.heardSince(readStarted);
        if (heard === 'interesting') continue;
        this.wakeEarly = new AbortController();
        await this.news.wait(
          this.nextWaitMs(heldBackReads, heard),
          AbortSignal.any([this.stopped.signal, this.wakeEarly.signal]),
          this.options.pollIntervalMs,
        );
        this.wakeEarly = null;
        this.takeNudge();
      }
    } finally {
      this.onClose();
    }
  }

  /** Soon while events are held back (2 ms, then twice as long each time up to the poll interval); else as news says. */
  private nextWaitMs(heldBackReads: number, heard: HeardNews): number {
    const { pollIntervalMs } = this.options;
    if (heldBackReads > 0) return Math.min(pollIntervalMs, 2 ** heldBackReads);
    if (heard === 'other') return pollIntervalMs;
    return Math.max(pollIntervalMs, this.options.idlePollMs ?? DEFAULT_IDLE_POLL_MS);
  }

  private takeNudge(): boolean {
    const nudged = this.nudged;
    this.nudged = false;
    return nudged;
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
