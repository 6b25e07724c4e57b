import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../../../../application/ports/logger.js';
import { PostgresEventStore } from '../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { createKnex } from '../../../../infrastructure/postgres/create-knex.js';
import { CatchUpTimeoutError } from '../../../../infrastructure/processing/catch-up-timeout-error.js';
import { CHECKPOINT_TABLE } from '../../../../infrastructure/processing/checkpoint-schema.js';
import type { Projection } from '../../../../projections/projection.js';
import { ProjectionRunner } from '../../../../infrastructure/processing/projection-runner.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { idOneDigitShorter, storeEventRow } from '../../../support/stored-event-rows.js';
import { waitFor } from '../../../support/wait-for.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** Waits for a position, on the PostgreSQL store, where "nothing visible yet" is not "nothing committed". */
describe('Waiting for a projection to catch up', () => {
  let database: TestDatabase;
  let db: Knex;
  let store: PostgresEventStore;
  const runners: ProjectionRunner[] = [];

  const projection: Projection = {
    name: 'seen',
    filter: { streamPrefixes: ['seen-'] },
    tables: ['seen_events'],
    async apply(trx, events) {
      for (const event of events) await trx('seen_events').insert({ event_id: event.id });
    },
  };

  before(async () => {
    database = await createTestDatabase('catch_up_wait');
    db = createKnex(database.url);
    store = new PostgresEventStore({ connectionString: database.url });
    await store.migrate();
    await db.raw('CREATE TABLE seen_events (event_id uuid PRIMARY KEY)');
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });

  after(async () => {
    await store.close();
    await db.destroy();
    await database.drop();
  });

  function runner(options: { watermarkIntervalMs?: number } = {}): ProjectionRunner {
    const created = new ProjectionRunner([projection], {
      db,
      store,
      connectionString: database.url,
      logger: silent,
      lockRetryMs: 100,
      ...options,
    });
    runners.push(created);
    return created;
  }

  async function seen(eventId: string): Promise<boolean> {
    return (await db('seen_events').where({ event_id: eventId }).first()) !== undefined;
  }

  it('does not report an appended event handled while an older open transaction still hides it from the projection', async () => {
    const live = runner();
    await live.start();
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const id = randomUUID();
      const { position } = await store.appendToStream(`seen-${randomUUID()}`, [{ id, type: 'Seen', data: {} }], {
        expectedRevision: 'no_stream',
      });
      await assert.rejects(live.waitUntilCaughtUp(position, { timeoutMs: 600 }), CatchUpTimeoutError);
      await assert.rejects(
        live.waitUntilCaughtUp(null, { timeoutMs: 300 }),
        CatchUpTimeoutError,
        'nor is "everything so far" reached',
      );
      assert.equal(await seen(id), false);

      await holder.query('COMMIT');
      await live.waitUntilCaughtUp(position, { timeoutMs: 5_000 });
      assert.equal(await seen(id), true);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });

  it('answers from a standby instance, from the stored watermark, for positions the filter skips as well', async () => {
    const active = runner();
    await active.start();
    // start() returns before the lock is taken: the standby must not win it.
    await waitFor('the first runner to take the lock', () => active.activeProjections().length === 1);
    const standby = runner();
    await standby.start();
    await active.waitUntilCaughtUp(null, { timeoutMs: 5_000 });
    assert.deepEqual(standby.activeProjections(), []);

    const id = randomUUID();
    const handled = await store.appendToStream(`seen-${randomUUID()}`, [{ id, type: 'Seen', data: {} }], {
      expectedRevision: 'no_stream',
    });
    await standby.waitUntilCaughtUp(handled.position, { timeoutMs: 5_000 });
    assert.equal(await seen(id), true);

    const skipped = await store.appendToStream(
      `other-${randomUUID()}`,
      [{ id: randomUUID(), type: 'Other', data: {} }],
      { expectedRevision: 'no_stream' },
    );
    await standby.waitUntilCaughtUp(skipped.position, { timeoutMs: 5_000 });
    const row = await db(CHECKPOINT_TABLE).where({ name: projection.name }).first<{ checkpoint: string }>('checkpoint');
    assert.ok(
      store.compare(row.checkpoint, skipped.position) >= 0,
      'the stored watermark moved past the skipped event',
    );
  });

  it('handles an event at once after skipped ones, whose position it stores once the watermark interval ends', async function () {
    this.timeout(60_000);
    // An interval far longer than a busy machine takes to handle an event, so "at once" and "after the interval" stay apart.
    const intervalMs = 4_000;
    const live = runner({ watermarkIntervalMs: intervalMs });
    await live.start();
    await live.waitUntilCaughtUp(null, { timeoutMs: 5_000 });
    // Two rounds: the first may store its skipped position at once, the second falls within the interval.
    for (let round = 0; round < 2; round += 1) {
      await store.appendToStream(`other-${randomUUID()}`, [{ id: randomUUID(), type: 'Other', data: {} }], {
        expectedRevision: 'no_stream',
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const id = randomUUID();
      const appendedAt = Date.now();
      await store.appendToStream(`seen-${randomUUID()}`, [{ id, type: 'Seen', data: {} }], {
        expectedRevision: 'no_stream',
      });
      while (!(await seen(id))) {
        assert.ok(
          Date.now() - appendedAt < intervalMs / 2,
          `round ${round}: the event waited behind the skipped one's watermark`,
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const skipped = await store.appendToStream(
      `other-${randomUUID()}`,
      [{ id: randomUUID(), type: 'Other', data: {} }],
      { expectedRevision: 'no_stream' },
    );
    await live.waitUntilCaughtUp(skipped.position, { timeoutMs: intervalMs * 3 });
    const row = await db(CHECKPOINT_TABLE).where({ name: projection.name }).first<{ checkpoint: string }>('checkpoint');
    assert.ok(
      store.compare(row.checkpoint, skipped.position) >= 0,
      'a skipped position left pending is stored when its interval ends',
    );
  });

  it('waits for everything so far once transaction ids have gained a digit since the stored checkpoint', async () => {
    // No instance runs this projection: only its stored checkpoint moves, by hand.
    const waiter = new ProjectionRunner([{ ...projection, name: 'digits' }], {
      db,
      store,
      connectionString: database.url,
      logger: silent,
      catchUpPollMs: 50,
    });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const handled = await storeEventRow(client, {
        transactionId: await idOneDigitShorter(client),
        streamName: `digits-${randomUUID()}`,
        revision: 0,
      });
      await db(CHECKPOINT_TABLE).insert({ name: 'digits', checkpoint: handled });
    } finally {
      await client.end();
    }
    const appended = await store.appendToStream(
      `digits-${randomUUID()}`,
      [{ id: randomUUID(), type: 'Seen', data: {} }],
      { expectedRevision: 'no_stream' },
    );
    await assert.rejects(
      waiter.waitUntilCaughtUp(null, { timeoutMs: 500 }),
      CatchUpTimeoutError,
      'the event appended now is not handled yet',
    );

    await db(CHECKPOINT_TABLE).where({ name: 'digits' }).update({ checkpoint: appended.position });
    await waiter.waitUntilCaughtUp(null, { timeoutMs: 5_000 });
  });
});
