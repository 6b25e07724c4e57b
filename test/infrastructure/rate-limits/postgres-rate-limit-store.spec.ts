import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type { BucketState } from '../../../application/ports/rate-limit-store.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { PostgresRateLimitStore } from '../../../infrastructure/rate-limits/postgres-rate-limit-store.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

describe('PostgreSQL request rate limit store', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase('rate_limit_store');
    db = createKnex(database.url);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps its counters in an UNLOGGED table, and turns a table made before that into one', async () => {
    await db.raw(
      'CREATE TABLE rate_limit_buckets (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)',
    );
    await PostgresRateLimitStore.open(db);
    const { rows } = await db.raw<{ rows: Array<{ relpersistence: string }> }>(
      `SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_buckets'`,
    );
    assert.equal(rows[0].relpersistence, 'u');
    await PostgresRateLimitStore.open(db);
  });

  it('refuses a spent bucket from memory for the rest of its window, without asking the database', async () => {
    const store = await PostgresRateLimitStore.open(db);
    const decisions: BucketState[] = [];
    for (let i = 0; i < 8; i += 1) decisions.push(await store.consume('key:spent', 3));
    assert.deepEqual(
      decisions.map((decision) => decision.allowed),
      [true, true, true, false, false, false, false, false],
    );
    // Every request that reaches the database adds a point to the bucket's row.
    const [row] = await db('rate_limit_buckets').where('key', 'like', '%key:spent');
    assert.equal(row.points, 3, 'only the requests the bucket admitted reached the database');
    assert.ok(decisions[7].msBeforeReset > 0 && decisions[7].msBeforeReset <= 1_000);
    await new Promise((resolve) => setTimeout(resolve, decisions[7].msBeforeReset + 50));
    assert.equal((await store.consume('key:spent', 3)).allowed, true, 'a new window admits again');
  });

  it('admits no more than the limit across instances leasing from the same table at once, and at most a lease per other instance fewer', async function () {
    const instances = await Promise.all(
      [0, 1].map(async () => new LeasedRateLimitStore(await PostgresRateLimitStore.open(db), 0.1)),
    );
    const started = Date.now();
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => instances[i % 2].consume('key:leased', 100)),
    );
    // One window is one second from the bucket's first request: a machine too slow to send these within it would see two.
    if (Date.now() - started > 900) this.skip();
    const admitted = decisions.filter((decision) => decision.allowed).length;
    assert.ok(admitted <= 100 && admitted >= 91, `admitted ${admitted}`);
    const [row] = await db('rate_limit_buckets').where('key', 'like', '%key:leased');
    assert.ok(row.points >= admitted, 'every admitted request was counted in the table');
  });
});
