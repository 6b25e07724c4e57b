import type { Knex } from 'knex';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';
import { consumeBucket } from './consume-bucket.js';

const TABLE = 'rate_limit_buckets';

/**
 * rate-limiter-flexible's PostgreSQL limiter: one atomic upsert per request and bucket, so every API instance counts
 * in the same window; one limiter per distinct limit, since a limiter's points are fixed. A busy key costs no commit
 * per request: the table is UNLOGGED (a crash forgives at most one second's requests, and no WAL flush is waited
 * for), and a bucket the database calls spent is refused from memory for the rest of its window.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

  private constructor(private readonly db: Knex) {}

  /** Creates the table first, once for all instances, so no two limiters race to create it. */
  static async open(db: Knex): Promise<PostgresRateLimitStore> {
    await db.transaction(async (trx) => {
      await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
      await trx.raw(
        `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
      );
      // Tables made before it was UNLOGGED are changed once; the check keeps later starts from locking it.
      const { rows } = await trx.raw<{ rows: Array<{ relpersistence: string }> }>(
        `SELECT relpersistence FROM pg_class WHERE oid = ?::regclass`,
        [TABLE],
      );
      if (rows[0]?.relpersistence === 'p') await trx.raw(`ALTER TABLE ${TABLE} SET UNLOGGED`);
    });
    return new PostgresRateLimitStore(db);
  }

  consume(bucket: string, limitPerSecond: number, points = 1): Promise<BucketState> {
    return consumeBucket(this.limiter(limitPerSecond), bucket, points);
  }

  private limiter(points: number): RateLimiterPostgres {
    let limiter = this.limiters.get(points);
    if (limiter === undefined) {
      limiter = new RateLimiterPostgres({
        storeClient: this.db,
        storeType: 'knex',
        tableName: TABLE,
        tableCreated: true,
        clearExpiredByTimeout: true,
        // Buckets of different limits must not share a row.
        keyPrefix: `rps${points}`,
        points,
        duration: 1,
        // With no block duration of its own, a bucket that reached its points is refused in memory until its window ends.
        inMemoryBlockOnConsumed: points,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
