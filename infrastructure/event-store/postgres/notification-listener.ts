import pg from 'pg';

/**
 * One LISTEN connection per store, shared by its subscriptions. A
 * notification is only a hint to read again: subscriptions also poll, so a
 * lost connection or a missed notification delays delivery but never loses
 * an event.
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

  /** Resolves true at the next notification, false after `timeoutMs` or when `signal` aborts. */
  async wait(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    await this.ensureListening().catch(() => undefined);
    if (signal.aborted || this.closed) return false;
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
    this.wakeAll();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private ensureListening(): Promise<void> {
    if (this.closed || this.client !== null) return Promise.resolve();
    this.connecting ??= this.listen().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    const forget = () => {
      // The next wait connects again; polling covers the gap.
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
    };
    client.on('notification', () => this.wakeAll());
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
