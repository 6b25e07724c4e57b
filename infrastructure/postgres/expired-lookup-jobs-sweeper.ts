import type { Knex } from 'knex';
import type { Clock } from '../../application/ports/clock.js';
import type { Logger } from '../../application/ports/logger.js';

/**
 * Deletes info and client-download jobs past their lifetime from the read
 * model, every `intervalMs`. Polling already answers 404 for them (the query
 * checks the expiry); the sweep keeps the table small. Their events stay in
 * the event store for auditors.
 */
export class ExpiredLookupJobsSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly intervalMs = 60_000,
  ) {}

  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      this.running = this.sweep().then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error }, 'sweeping expired lookup jobs failed; trying again later'),
      );
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** The number of rows deleted. */
  async sweep(): Promise<number> {
    return this.db('lookup_jobs').where('expires_at', '<=', this.clock.now()).delete();
  }
}
