import pg from 'pg';

/**
 * One LISTEN connection per store, shared by its subscriptions. A wake-up is
 * only a hint to read again: subscriptions also poll, so a lost connection or
 * a missed notification delays delivery but never loses an event.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly waiters = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

  /** Resolves at the next notification (true), or false after `timeoutMs` or when `signal` aborts. */
  async wait(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    await this.ensureListening().catch(() => undefined);
    if (signal.aborted) return false;
    return new Promise<boolean>((resolve) => {
      const finish = (notified: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(onNotify);
        resolve(notified);
      };
      const onNotify = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal.addEventListener('abort', onAbort);
      this.waiters.add(onNotify);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private ensureListening(): Promise<void> {
    if (this.closed || this.client !== null) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('notification', () => {
        for (const wake of [...this.waiters]) wake();
      });
      client.on('error', () => {
        // Reconnect on the next wait; polling covers the gap.
        if (this.client === client) this.client = null;
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
        if (this.closed) await client.end();
        else this.client = client;
      } finally {
        this.connecting = null;
      }
    })();
    return this.connecting;
  }
}
