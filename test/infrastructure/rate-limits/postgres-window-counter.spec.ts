import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { PostgresWindowCounter } from '../../../infrastructure/rate-limits/postgres-window-counter.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

describe('PostgreSQL request rate limit counter', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase('rate_limit_counter');
    db = createKnex(database.url);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  // Seconds an hour ahead: a sweep, which any add may start in the background, deletes only seconds in the past.
  const AHEAD = Math.floor(Date.now() / 1_000) + 3_600;

  const pointsOf = async (bucket: string, second: number) =>
    (await db('rate_limit_windows').where({ bucket, epoch_second: second }).first())?.points;

  it('keeps its counts in an UNLOGGED table, created once however many instances open it', async () => {
    await Promise.all([PostgresWindowCounter.open(db), PostgresWindowCounter.open(db)]);
    const { rows } = await db.raw<{ rows: Array<{ relpersistence: string }> }>(
      `SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_windows'`,
    );
    assert.equal(rows[0].relpersistence, 'u');
  });

  it('adds within the limit, refuses past it without counting, and keeps each second apart', async () => {
    const counter = await PostgresWindowCounter.open(db);
    assert.deepEqual(await counter.add('key:a', AHEAD, 10, 6), { allowed: true, remaining: 4 });
    assert.deepEqual(await counter.add('key:a', AHEAD, 10, 5), { allowed: false, remaining: 0 });
    assert.equal(await pointsOf('key:a', AHEAD), 6, 'the refused five were not counted');
    assert.deepEqual(await counter.add('key:a', AHEAD, 10, 4), { allowed: true, remaining: 0 });
    assert.deepEqual(await counter.add('key:a', AHEAD + 1, 10, 10), { allowed: true, remaining: 0 }, 'the next second');
    assert.deepEqual(await counter.add('key:b', AHEAD, 10, 11), { allowed: false, remaining: 0 });
    assert.equal(await pointsOf('key:b', AHEAD), undefined);
  });

  it('never counts past the limit under concurrent additions from several instances', async () => {
    const counters = await Promise.all([0, 1, 2].map(() => PostgresWindowCounter.open(db)));
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => counters[i % 3].add('key:busy', AHEAD + 100, 25, 1 + (i % 2))),
    );
    const admitted = results.filter((result) => result.allowed).length;
    assert.equal(
      await pointsOf('key:busy', AHEAD + 100),
      25,
      'filled exactly: single requests fit where pairs did not',
    );
    assert.ok(admitted >= 13 && admitted <= 25, `admitted ${admitted}`);
  });

  it('admits no more than the limit across leasing instances at once, and at most a lease and a quarter per other instance fewer', async () => {
    const instances = await Promise.all(
      [0, 1].map(async () => new LeasedRateLimitStore(await PostgresWindowCounter.open(db), 0.1)),
    );
    const second = () => Math.floor(Date.now() / 1_000);
    // Exact counts hold within one second of the clock: retried until a burst fits in one.
    for (let attempt = 0; ; attempt += 1) {
      const bucket = `key:leased:${attempt}`;
      const started = second();
      const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => instances[i % 2].consume(bucket, 100)));
      if (second() !== started) {
        assert.ok(attempt < 20, 'no burst fitted in one second');
        continue;
      }
      const admitted = decisions.filter((decision) => decision.allowed).length;
      assert.ok(admitted <= 100 && admitted >= 100 - 9 - 2, `admitted ${admitted}`);
      assert.equal(await pointsOf(bucket, started), 100, 'the count was filled, and never passed');
      return;
    }
  });

  it('counts instances whose clocks disagree in the database’s seconds, and one ahead never sweeps the count of one behind', async () => {
    const [ahead, behind] = await Promise.all(
      [60_000, -60_000].map((skewMs) => PostgresWindowCounter.open(db, { localClock: () => Date.now() + skewMs })),
    );
    const stores = [ahead, behind].map((counter) => new LeasedRateLimitStore(counter, 0, () => counter.now()));
    // Each estimate of the database's clock errs by up to half a round trip: the seconds both name, or NaN.
    const second = () => {
      const [a, b] = [ahead, behind].map((counter) => Math.floor(counter.now() / 1_000));
      return a === b ? a : Number.NaN;
    };
    // Exact counts hold within one second: retried, from 100 ms into a second, until the requests fit in one.
    for (let attempt = 0; ; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1_100 - (behind.now() % 1_000)));
      const bucket = `key:skewed:${attempt}`;
      const started = second();
      const decisions = [];
      for (let i = 0; i < 5; i += 1) decisions.push(await stores[i % 2].consume(bucket, 4));
      if (Number.isNaN(started) || second() !== started) {
        assert.ok(attempt < 20, 'no five requests fitted in one second');
        continue;
      }
      assert.deepEqual(
        decisions.map((decision) => decision.allowed),
        [true, true, true, true, false],
        'both instances counted in the same row',
      );
      await db('rate_limit_windows').insert({ bucket, epoch_second: started - 30, points: 1 });
      await ahead.sweep();
      assert.equal(await pointsOf(bucket, started), 4, 'the current count outlived a sweep by the instance ahead');
      assert.equal(await pointsOf(bucket, started - 30), undefined, 'the sweep deleted what was old by the database');
      return;
    }
  });
});
