import type { Knex } from 'knex';
import type { Clock } from '../../application/ports/clock.js';

/**
 * Deletes info and client-download jobs past their lifetime from the read
 * model (the projector role runs it every minute). Polling already answers 404 for them (the query
 * checks the expiry); the sweep keeps the table small. Their events stay in
 * the event store for auditors.
 */
export class ExpiredLookupJobsSweeper {
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
  ) {}

  /** The number of rows deleted. */
  async sweep(): Promise<number> {
    return this.db('lookup_jobs').where('expires_at', '<=', this.clock.now()).delete();
  }
}
