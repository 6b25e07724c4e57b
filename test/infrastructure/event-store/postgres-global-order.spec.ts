import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type RecordedEvent, WrongExpectedRevisionError } from '../../../application/ports/event-store.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { take } from './contract.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL event store: global order under concurrent writers', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let reader: PostgresEventStore;

  before(async () => {
    database = await createTestDatabase('es_order');
    reader = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 20 });
    await reader.migrate();
  });
  after(async () => {
    await reader?.close();
    await database?.drop();
  });

  it('does not read past a transaction that took an earlier position until it commits', async () => {
    const early = new pg.Client({ connectionString: database.url });
    await early.connect();
    try {
      const before = await reader.readAll({ maxCount: 10_000 });
      const checkpoint = before.length === 0 ? null : before[before.length - 1].position;
      await early.query('BEGIN');
      await early.query(
        `INSERT INTO es_events (stream_name, stream_revision, event_id, event_type, data) VALUES ($1, 0, $2, 'Early', '{}')`,
        [`slow-${randomUUID()}`, randomUUID()],
      );
      // A later transaction takes a later position and commits first.
      await reader.appendToStream(`fast-${randomUUID()}`, [{ id: randomUUID(), type: 'Late', data: {} }], { expectedRevision: 'no_stream' });
      assert.deepEqual(await reader.readAll({ after: checkpoint }), [], 'nothing is visible while the earlier transaction is open');
      await early.query('COMMIT');
      assert.deepEqual((await reader.readAll({ after: checkpoint })).map((event) => event.type), ['Early', 'Late']);
    } finally {
      await early.end();
    }
  });

  it('delivers every event exactly once, each stream in revision order, to a live subscriber while 8 writers append', async () => {
    const writers = await Promise.all(Array.from({ length: 8 }, () => new PostgresEventStore({ connectionString: database.url, poolSize: 3 })));
    const run = randomUUID().slice(0, 8);
    const shared = Array.from({ length: 3 }, (_, i) => `shared${run}-${i}`);
    const existing = await reader.readAll({ maxCount: 100_000 });
    const subscription = reader.subscribeToAll({ after: existing.at(-1)?.position ?? null, filter: { streamPrefixes: [`shared${run}-`, `private${run}-`] }, batchSize: 37 });
    const iterator = subscription[Symbol.asyncIterator]();
    const perWriter = 40;
    try {
      const appended: string[] = [];
      const received = take(iterator, 8 * perWriter, 45_000);
      await Promise.all(
        writers.map(async (store, w) => {
          for (let i = 0; i < perWriter; i += 1) {
            const target = i % 2 === 0 ? shared[(w + i) % shared.length] : `private${run}-${w}`;
            const id = randomUUID();
            await store.appendToStream(target, [{ id, type: 'Tick', data: { w, i } }], { expectedRevision: 'any' });
            appended.push(id);
            if (i % 7 === 0) await sleep(Math.random() * 5);
          }
        }),
      );
      const events = await received;
      assert.equal(events.length, appended.length);
      assert.deepEqual(new Set(events.map((event) => event.id)), new Set(appended), 'every event, none twice');
      const byStream = new Map<string, RecordedEvent[]>();
      for (const event of events) byStream.set(event.streamName, [...(byStream.get(event.streamName) ?? []), event]);
      for (const [name, streamEvents] of byStream) {
        assert.deepEqual(streamEvents.map((event) => event.revision), streamEvents.map((_, index) => index), `${name} in revision order`);
      }
    } finally {
      await subscription.close();
      await Promise.all(writers.map((store) => store.close()));
    }
  });

  it('keeps optimistic concurrency under the same load: one winner per expected revision', async () => {
    const writers = await Promise.all(Array.from({ length: 8 }, () => new PostgresEventStore({ connectionString: database.url, poolSize: 2 })));
    const name = `contended-${randomUUID()}`;
    try {
      let conflicts = 0;
      await Promise.all(
        writers.map(async (store, w) => {
          for (let i = 0; i < 15; i += 1) {
            for (;;) {
              const current = await store.readStream(name, { direction: 'backwards', maxCount: 1 });
              const expected = current.length === 0 ? ('no_stream' as const) : current[0].revision;
              try {
                await store.appendToStream(name, [{ id: randomUUID(), type: 'Inc', data: { w, i } }], { expectedRevision: expected });
                break;
              } catch (error) {
                assert.ok(error instanceof WrongExpectedRevisionError);
                conflicts += 1;
              }
            }
          }
        }),
      );
      const events = await reader.readStream(name);
      assert.equal(events.length, 8 * 15, 'every write landed exactly once');
      assert.deepEqual(events.map((event) => event.revision), events.map((_, index) => index));
      assert.ok(conflicts > 0, 'the writers did contend');
    } finally {
      await Promise.all(writers.map((store) => store.close()));
    }
  });
});
