import type { Knex } from 'knex';
import type { WindowCount, WindowCounter } from './window-counter.js';

const TABLE = 'rate_limit_windows';
/** Seconds older than this are deleted, at most once per `SWEEP_EVERY_MS` and only while requests are counted. */
const KEEP_SECONDS = 10;
const SWEEP_EVERY_MS = 30_000;

/**
 * One row per bucket and second, added to by one atomic upsert that refuses (and adds nothing) past the limit, so
 * every API instance counts in the same second and a refused lease costs the others nothing. The table is UNLOGGED:
 * a crash forgives at most the current second's requests, and no WAL flush is waited for.
 */
export class PostgresWindowCounter implements WindowCounter {
  private lastSweep = 0;

  private constructor(private readonly db: Knex) {}

  /** Creates the table first, once for all instances, under the lock the read models' schema uses. */
  static async open(db: Knex): Promise<PostgresWindowCounter> {
    await db.transaction(async (trx) => {
      await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
      await trx.raw(
        `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (bucket text NOT NULL, epoch_second bigint NOT NULL, ` +
          'points integer NOT NULL, PRIMARY KEY (bucket, epoch_second))',
      );
    });
    return new PostgresWindowCounter(db);
  }

  async add(bucket: string, epochSecond: number, limit: number, points: number): Promise<WindowCount> {
    if (points > limit) return { allowed: false, remaining: 0 };
    this.sweep(epochSecond);
    const { rows } = await this.db.raw<{ rows: Array<{ points: number }> }>(
      `INSERT INTO ${TABLE} AS counted (bucket, epoch_second, points) VALUES (?, ?, ?) ` +
        'ON CONFLICT (bucket, epoch_second) DO UPDATE SET points = counted.points + excluded.points ' +
        'WHERE counted.points + excluded.points <= ? RETURNING points',
      [bucket, epochSecond, points, limit],
    );
    return rows.length === 0 ? { allowed: false, remaining: 0 } : { allowed: true, remaining: limit - rows[0].points };
  }

  private sweep(epochSecond: number): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // A failed sweep is retried by the next one; the rows it left only take space.
    this.db(TABLE)
      .where('epoch_second', '<', epochSecond - KEEP_SECONDS)
      .delete()
      .catch(() => undefined);
  }
}
