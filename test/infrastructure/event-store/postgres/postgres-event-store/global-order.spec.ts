import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../../../../application/ports/event-store.js';
import {
  appendInTransaction,
  categoryOf,
} from '../../../../../infrastructure/event-store/postgres/append-in-transaction.js';
import { comparePositions, decodePosition } from '../../../../../infrastructure/event-store/postgres/checkpoint.js';
import { PostgresEventStore } from '../../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { EVENTS_CHANNEL } from '../../../../../infrastructure/event-store/postgres/schema.js';
import { type TestDatabase, createTestDatabase } from '../../../../support/postgres.js';
import { newEvent, nextWithin, readUntil, take } from '../../contract.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const randomDelay = (maxMs: number) => sleep(Math.random() * maxMs);
const types = (events: readonly RecordedEvent[]) => events.map((event) => event.type);
const uniqueCategory = (label: string) => `${label}${randomUUID().replace(/-/g, '').slice(0, 10)}`;

/**
 * An append run with the store's own statements in a transaction that stays open until `commit()`, which then
 * notifies its category as the store does, unless told not to (as when the appending process dies in between).
 */
interface OpenAppend {
  result: AppendResult;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

async function beginAppend(
  pool: pg.Pool,
  streamName: string,
  events: readonly EventToAppend[],
  expectedRevision: ExpectedRevision,
  { notify = true } = {},
): Promise<OpenAppend> {
  const client = await pool.connect();
  let released = false;
  const finish = async (statement: 'COMMIT' | 'ROLLBACK') => {
    if (released) return;
    released = true;
    try {
      await client.query(statement);
      if (statement === 'COMMIT' && notify)
        await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, categoryOf(streamName)]);
    } finally {
      client.release();
    }
  };
  try {
    await client.query('BEGIN');
    const result = await appendInTransaction(client, streamName, events, expectedRevision);
    return { result, commit: () => finish('COMMIT'), rollback: () => finish('ROLLBACK') };
  } catch (error) {
    await finish('ROLLBACK');
    throw error;
  }
}

/** Whether `promise` settles within `ms`, without consuming its value. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    sleep(ms).then(() => false),
  ]);
  return settled;
}

describe('PostgreSQL event store: global order under concurrent writers', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let reader: PostgresEventStore;
  /** Plain connections for holding appends open. */
  let rawPool: pg.Pool;

  before(async () => {
    database = await createTestDatabase('es_order');
    reader = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 20 });
    await reader.migrate();
    rawPool = new pg.Pool({ connectionString: database.url, max: 6 });
    // pg's pool.end() resolves before its clients have disconnected, so dropping the database can still hit one.
    rawPool.on('error', () => undefined);
  });
  after(async () => {
    await reader?.close();
    await rawPool?.end();
    await database?.drop();
  });

  it('holds readers at a transaction that took an earlier position until it commits, then delivers both in order', async () => {
    const category = uniqueCategory('skip');
    const filter = { streamPrefixes: [`${category}-`] };
    const subscription = reader.subscribeToAll({ filter });
    const iterator = subscription[Symbol.asyncIterator]();
    let early: OpenAppend | null = null;
    try {
      // The subscriber is caught up and live before the race begins.
      const marker = await reader.appendToStream(`${category}-marker`, [newEvent('Marker')], {
        expectedRevision: 'no_stream',
      });
      assert.deepEqual(types(await take(iterator, 1)), ['Marker']);

      // Its commit announces nothing, as a transaction that appends nothing would not: the reads that see Late held
      // back behind it keep looking, and find both.
      early = await beginAppend(rawPool, `${category}-slow`, [newEvent('Early')], 'no_stream', { notify: false });
      const late = await reader.appendToStream(`${category}-fast`, [newEvent('Late')], {
        expectedRevision: 'no_stream',
      });
      const earlyPosition = decodePosition(early.result.position);
      const latePosition = decodePosition(late.position);
      assert.ok(
        BigInt(earlyPosition.globalPosition) < BigInt(latePosition.globalPosition),
        'the open transaction took the lower global position',
      );
      assert.ok(comparePositions(earlyPosition, latePosition) < 0, 'and comes first in the global order');

      // The later transaction has committed and notified; the subscriber must still not pass the open one.
      const next = nextWithin(iterator, 10_000);
      assert.equal(await settlesWithin(next, 400), false, 'nothing is delivered while the earlier transaction is open');
      assert.deepEqual(
        await reader.readAll({ after: marker.position, filter }),
        [],
        'readAll does not advance past it either',
      );

      await early.commit();
      const first = await next;
      assert.ok(first !== 'timeout' && first.done === false);
      const delivered = [
        ...first.value,
        ...(first.value.length < 2 ? await take(iterator, 2 - first.value.length) : []),
      ];
      assert.deepEqual(types(delivered), ['Early', 'Late']);
      assert.deepEqual(
        delivered.map((event) => event.position),
        [early.result.position, late.position],
      );
      const read = await readUntil(
        () => reader.readAll({ after: marker.position, filter }),
        (events) => events.length >= 2,
      );
      assert.deepEqual(types(read), ['Early', 'Late']);
    } finally {
      await early?.rollback();
      await subscription.close();
    }
  });

  it('finds an append whose notification never came at the next news of any category', async () => {
    const category = uniqueCategory('silent');
    // A reader that would not look on its own for a minute: only news makes it read.
    const patient = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 20, idlePollMs: 60_000 });
    const subscription = patient.subscribeToAll({ filter: { streamPrefixes: [`${category}-`] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      await reader.appendToStream(`${category}-marker`, [newEvent('Marker')], { expectedRevision: 'no_stream' });
      assert.deepEqual(types(await take(iterator, 1)), ['Marker']);
      const next = nextWithin(iterator, 20_000);
      assert.equal(await settlesWithin(next, 400), false, 'nothing more, and the reader has gone quiet');
      const silent = await beginAppend(rawPool, `${category}-lost`, [newEvent('Unannounced')], 'no_stream', {
        notify: false,
      });
      await silent.commit();
      assert.equal(await settlesWithin(next, 400), false, 'no news, no read');
      await reader.appendToStream(`${uniqueCategory('other')}-stream`, [newEvent('Elsewhere')], {
        expectedRevision: 'no_stream',
      });
      const found = await next;
      assert.ok(found !== 'timeout' && found.done === false, 'found after news of another category');
      assert.deepEqual(types(found.value), ['Unannounced']);
    } finally {
      await subscription.close();
      await patient.close();
    }
  });

  it('keeps one stream in revision order: a second append waits for the first one’s commit and orders after it', async () => {
    const category = uniqueCategory('stream');
    const name = `${category}-one`;
    const first = await beginAppend(rawPool, name, [newEvent('First')], 'no_stream');
    try {
      const second = reader.appendToStream(name, [newEvent('Second')], { expectedRevision: 'any' });
      assert.equal(await settlesWithin(second, 300), false, 'the second append waits on the stream lock');
      await first.commit();
      const result = await second;
      assert.equal(result.nextExpectedRevision, 1);
      assert.ok(
        BigInt(decodePosition(result.position).transactionId) >
          BigInt(decodePosition(first.result.position).transactionId),
        'the waiting transaction got its id only after taking the lock',
      );
      const read = await readUntil(
        () => reader.readAll({ filter: { streamPrefixes: [name] } }),
        (events) => events.length >= 2,
      );
      assert.deepEqual(
        read.map((event) => [event.type, event.revision]),
        [
          ['First', 0],
          ['Second', 1],
        ],
      );
    } finally {
      await first.rollback();
    }
  });

  it('delivers every event once, each stream in revision order, and one winner per raced revision while 8 writers append', async () => {
    const writerCount = 8;
    const appendsPerWriter = 36;
    const raceRounds = 12;
    const category = uniqueCategory('load');
    const shared = Array.from({ length: 3 }, (_, index) => `${category}-shared${index}`);
    const raced = `${category}-raced`;
    const writers = Array.from(
      { length: writerCount },
      () => new PostgresEventStore({ connectionString: database.url, poolSize: 2 }),
    );

    const subscription = reader.subscribeToAll({ filter: { streamPrefixes: [`${category}-`] }, batchSize: 25 });
    const received: RecordedEvent[] = [];
    const consuming = (async () => {
      for await (const page of subscription) received.push(...page.events);
    })();
    // Awaited at the end; marked handled now so an early failure is reported there, not as an unhandled rejection.
    consuming.catch(() => undefined);

    const appended = new Set<string>();
    const heldOpen = { count: 0 };
    async function write(writer: number): Promise<void> {
      const own = `${category}-private${writer}`;
      let ownRevision: ExpectedRevision = 'no_stream';
      for (let index = 0; index < appendsPerWriter; index += 1) {
        const toShared = index % 2 === 0;
        const name = toShared ? shared[(writer + index) % shared.length] : own;
        const events = Array.from({ length: 1 + (index % 3) }, () => newEvent('Tick', { writer, index }));
        const expected = toShared ? 'any' : ownRevision;
        let result: AppendResult;
        if (index % 6 === 5) {
          // Commits late, after transactions that began after it may have committed.
          const open = await beginAppend(rawPool, name, events, expected);
          heldOpen.count += 1;
          await randomDelay(25);
          await open.commit();
          result = open.result;
        } else {
          result = await writers[writer].appendToStream(name, events, { expectedRevision: expected });
        }
        for (const event of events) appended.add(event.id);
        if (!toShared) ownRevision = result.nextExpectedRevision;
        await randomDelay(4);
      }
    }

    type Round = PromiseSettledResult<AppendResult>[];
    async function race(): Promise<Round[]> {
      const rounds: Round[] = [];
      for (let round = 0; round < raceRounds; round += 1) {
        const expected: ExpectedRevision = round === 0 ? 'no_stream' : round - 1;
        const events = writers.map((_, writer) => newEvent('Raced', { round, writer }));
        const results = await Promise.allSettled(
          writers.map((store, writer) => store.appendToStream(raced, [events[writer]], { expectedRevision: expected })),
        );
        results.forEach((result, writer) => {
          if (result.status === 'fulfilled') appended.add(events[writer].id);
        });
        rounds.push(results);
        await randomDelay(10);
      }
      return rounds;
    }

    try {
      const [rounds] = await Promise.all([race(), ...writers.map((_, writer) => write(writer))]);
      assert.ok(heldOpen.count >= writerCount * 5, 'some appends were held open');

      rounds.forEach((results, round) => {
        assert.equal(
          results.filter((result) => result.status === 'fulfilled').length,
          1,
          `round ${round} has one winner`,
        );
        for (const result of results) {
          if (result.status === 'fulfilled') continue;
          const error: unknown = result.reason;
          assert.ok(error instanceof WrongExpectedRevisionError, `round ${round}: ${String(error)}`);
          assert.deepEqual([error.expected, error.actual], [round === 0 ? 'no_stream' : round - 1, round]);
        }
      });
      assert.deepEqual(
        (await reader.readStream(raced)).map((event) => event.revision),
        Array.from({ length: raceRounds }, (_, index) => index),
      );

      const deadline = Date.now() + 15_000;
      while (received.length < appended.size && Date.now() < deadline) await sleep(20);
      // Anything delivered twice would arrive by now.
      await sleep(300);
      assert.equal(received.length, appended.size, 'as many deliveries as appended events');
      assert.deepEqual(new Set(received.map((event) => event.id)), appended, 'every appended event, none twice');

      const byStream = new Map<string, number[]>();
      for (const event of received)
        byStream.set(event.streamName, [...(byStream.get(event.streamName) ?? []), event.revision]);
      for (const [name, revisions] of byStream) {
        assert.deepEqual(
          revisions,
          revisions.map((_, index) => index),
          `${name} arrives in revision order`,
        );
      }
      const stored = await readUntil(
        () => reader.readAll({ filter: { streamPrefixes: [`${category}-`] }, maxCount: 10_000 }),
        (events) => events.length >= appended.size,
      );
      assert.deepEqual(
        received.map((event) => event.position),
        stored.map((event) => event.position),
        'delivered in the store’s global order',
      );
    } finally {
      await subscription.close();
      await consuming;
      await Promise.all(writers.map((store) => store.close()));
    }
  });
});
