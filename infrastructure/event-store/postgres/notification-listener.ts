import pg from 'pg';
import { listeningClient } from '../../postgres/listening-client.js';
import { CategoryNews, type HeardNews, type NewsInterest, type NewsMark } from './category-news.js';

/**
 * One LISTEN connection per store, shared by its subscriptions. A
 * notification is only a hint to read again. Notifications are missed only
 * while no connection listens, so losing it wakes every waiter, and a wait
 * that had to connect first ends at once: either way the subscriptions read
 * again instead of waiting for their slow poll. A notification wakes only
 * the waiters interested in one of the categories it names.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly news = new CategoryNews();
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

  /**
   * Resolves true at the next notification it is interested in, or at once when the listening connection had to be
   * opened (what was appended before it listened went unheard); false after `timeoutMs`, within `otherNewsWaitMs` of
   * a notification of other categories, or when `signal` aborts.
   */
  async wait(
    timeoutMs: number,
    signal: AbortSignal,
    interest?: NewsInterest,
    otherNewsWaitMs?: number,
  ): Promise<boolean> {
    const connected = await this.ensureListening().catch(() => false);
    if (signal.aborted || this.closed) return false;
    if (connected) return true;
    return this.news.wait(timeoutMs, signal, interest, otherNewsWaitMs);
  }

  mark(): NewsMark {
    return this.news.mark();
  }

  heardSince(since: NewsMark, interest?: NewsInterest): HeardNews {
    return this.news.heardSince(since, interest);
  }

  /** Wakes the interested waiters of this process at once, as a notification naming these categories would. */
  announce(categories: readonly string[] | null): void {
    this.news.announce(categories);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.news.wakeAll();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** True when this call (or one it joined) opened the connection. */
  private ensureListening(): Promise<boolean> {
    if (this.closed || this.client !== null) return Promise.resolve(false);
    this.connecting ??= this.listen().finally(() => {
      this.connecting = null;
    });
    return this.connecting.then(() => true);
  }

  private async listen(): Promise<void> {
    // With keep-alives, a connection that died silently is replaced instead of leaving the readers on their 30 s poll for good.
    const client = listeningClient(this.connectionString);
    const forget = () => {
      if (this.client === client) {
        this.client = null;
        // Whatever is appended from now on goes unheard: everyone reads again, and the next wait connects again.
        this.announce(null);
      }
      client.end().catch(() => undefined);
    };
    // A payload-less notification (another version of the store) wakes everyone.
    client.on('notification', (message) => this.announce(message.payload ? message.payload.split(',') : null));
    client.on('error', forget);
    client.on('end', forget);
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    } catch (error) {
      forget();
      throw error;
    }
    if (this.closed) await client.end();
    else this.client = client;
  }
}
