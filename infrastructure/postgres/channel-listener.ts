import pg from 'pg';
import { listeningClient } from './listening-client.js';

export interface ChannelListenerHandlers {
  /** A notification's payload. */
  onNotification(payload: string): void;
  /** LISTEN is in place: from now on no notification is missed until onLost. */
  onListening(): void;
  /** The connection is gone: notifications may be missed until the next onListening. */
  onLost(): void;
}

/**
 * Keeps one connection LISTENing on a channel, reconnecting after a loss
 * (with a growing pause, at most `maxRetryDelayMs`), and says when it starts
 * and stops listening, so a cache that trusts the notifications knows when it
 * may not.
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly handlers: ChannelListenerHandlers,
    private readonly maxRetryDelayMs = 5_000,
  ) {}

  /** Resolves after the first attempt to listen, whether or not it succeeded; later attempts run in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // With keep-alives, a connection that died silently is noticed, so the cache stops trusting and connects again.
    const client = listeningClient(this.connectionString);
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = null;
        this.handlers.onLost();
      }
      client.end().catch(() => undefined);
      this.scheduleRetry();
    };
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.onNotification(message.payload ?? '');
    });
    client.on('error', lose);
    client.on('end', lose);
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    } catch {
      lose();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.client = client;
    this.handlers.onListening();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer !== null) return;
    this.failures += 1;
    const delay = Math.min(this.maxRetryDelayMs, 100 * 2 ** Math.min(this.failures, 10));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
