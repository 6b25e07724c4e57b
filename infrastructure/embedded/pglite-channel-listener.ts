import type { PGlite } from '@electric-sql/pglite';
import type { ChannelListenerHandlers } from '../postgres/channel-listener.js';

/**
 * LISTEN on the embedded database: PGlite delivers a committed NOTIFY to the
 * listeners of its own process, and that process is the only one using the
 * database, so nothing is missed while it runs and there is no connection to lose.
 */
export class PgliteChannelListener {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly pglite: PGlite,
    private readonly channel: string,
    private readonly handlers: ChannelListenerHandlers,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.pglite.listen(this.channel, (payload) => this.handlers.onNotification(payload));
    this.handlers.onListening();
  }

  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    if (unlisten !== null && !this.pglite.closed) await unlisten();
  }
}
