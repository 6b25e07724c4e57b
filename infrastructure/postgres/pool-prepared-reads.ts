import pg from 'pg';
import type { PreparedReads } from './prepared-reads.js';
import { SESSION_TIMEOUT_OPTIONS } from './session-timeouts.js';
import { TIMESTAMPS_AS_ISO_TEXT } from './timestamps-as-iso-text.js';

/**
 * The hot reads on a pg pool of their own, connected on first use, so that
 * only API processes open it. Borrowing a connection from knex's pool and
 * giving each query its own type parsers showed in a poll's CPU profile;
 * here the parsers are the pool's.
 */
export class PoolPreparedReads implements PreparedReads {
  private readonly pool: pg.Pool;

  constructor(connectionString: string, size: number) {
    this.pool = new pg.Pool({
      connectionString,
      max: size,
      options: SESSION_TIMEOUT_OPTIONS,
      types: TIMESTAMPS_AS_ISO_TEXT,
    });
    // An idle client whose server goes away must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  async query<Row extends object>(name: string, text: string, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>({ name, text, values })).rows;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
