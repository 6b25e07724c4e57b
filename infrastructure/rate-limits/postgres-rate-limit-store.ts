import type { Knex } from 'knex';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { AccountPlans, BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';
import { consumeBucket } from './consume-bucket.js';

const TABLE = 'rate_limit_buckets';

/**
 * rate-limiter-flexible's PostgreSQL limiter: one upsert per request and
 * bucket, atomic in the database, so every API instance counts in the same
 * window. One limiter per distinct limit, since a limiter has fixed points.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

  private constructor(private readonly db: Knex) {}

  /** Creates the table first, once for all instances, so no two limiters race to create it. */
  static async open(db: Knex): Promise<PostgresRateLimitStore> {
    await db.transaction(async (trx) => {
      await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
      await trx.raw(`CREATE TABLE IF NOT EXISTS ${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
    });
    return new PostgresRateLimitStore(db);
  }

  consume(bucket: string, limitPerSecond: number): Promise<BucketState> {
    return consumeBucket(this.limiter(limitPerSecond), bucket);
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
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

/** The plan id the accounts read model holds. */
export class PostgresAccountPlans implements AccountPlans {
  constructor(private readonly db: Knex) {}

  async planOf(accountId: string): Promise<string | null> {
    const row = await this.db('accounts').where('account_id', accountId).first<{ plan_id: string | null } | undefined>('plan_id');
    return row?.plan_id ?? null;
  }
}
