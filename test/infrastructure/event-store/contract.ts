import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  DuplicateEventError,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
  type SubscriptionPage,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';

export type EventStoreFactory = () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>;

export function newEvent(type: string, data: Record<string, unknown> = {}, metadata?: EventMetadata): EventToAppend {
  return { id: randomUUID(), type, data, metadata };
}

/** Takes from a subscription until `count` events arrived; fails after the timeout. */
export async function take(
  iterator: AsyncIterator<SubscriptionPage>,
  count: number,
  timeoutMs = 10_000,
): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  while (received.length < count) {
    const next = await nextWithin(iterator, deadline - Date.now());
    if (next === 'timeout') throw new Error(`timed out with ${received.length}/${count} events`);
    if (next.done === true) break;
    received.push(...next.value);
  }
  return received;
}

/**
 * The events of the iterator's next page that has any (pages that only move
 * the scan position are passed over), or 'timeout' when none comes within `ms`.
 */
export async function nextWithin(
  iterator: AsyncIterator<SubscriptionPage>,
  ms: number,
): Promise<IteratorResult<RecordedEvent[], undefined> | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(1, ms));
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next === 'timeout') return next;
      if (next.done === true) return { done: true, value: undefined };
      assert.ok(next.value.scannedTo !== null, 'every page says where the scan got to');
      if (next.value.events.length > 0) return { done: false, value: next.value.events };
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads until `done` holds. A store may show an append to global readers a
 * moment after the append returned (PostgreSQL waits until every older
 * transaction on the server has ended); it never shows events out of order.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function assertConflict(
  append: Promise<unknown>,
  expected: { streamName: string; expected: ExpectedRevision; actual: number },
): Promise<void> {
  await assert.rejects(append, (error: unknown) => {
    assert.ok(error instanceof WrongExpectedRevisionError, `expected WrongExpectedRevisionError, got ${String(error)}`);
    assert.deepEqual({ streamName: error.streamName, expected: error.expected, actual: error.actual }, expected);
    return true;
  });
}

const types = (events: readonly RecordedEvent[]) => events.map((event) => event.type).join(',');

/**
 * The behaviour every event store adapter shares; each adapter's spec runs it
 * with a factory of fresh stores. Every test writes to streams of a category
 * of its own and filters global reads by it, so the store may hold other data.
 */
export interface ContractOptions {
  /**
   * The store refuses a stored event id outside a retried append. EventStoreDB's
   * server only recognises retries, so its adapter runs without this part.
   */
  refusesReusedEventIds?: boolean;
}

export function describeEventStoreContract(
  label: string,
  factory: EventStoreFactory,
  options: ContractOptions = { refusesReusedEventIds: true },
): void {
  describe(`event store contract: ${label}`, function () {
    this.timeout(30_000);
    let store: EventStore;
    let cleanup: () => Promise<void>;
    /** This test's stream names start with it. */
    let category: string;
    const stream = (id: string = randomUUID()) => `${category}-${id}`;
    const mine = () => ({ streamPrefixes: [`${category}-`] });

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
      category = `contract${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    });
    afterEach(async () => cleanup());

    describe('appending', () => {
      it('starts a stream at revision 0 with no_stream and returns the last revision and its position', async () => {
        const name = stream();
        const result = await store.appendToStream(name, [newEvent('A'), newEvent('B')], {
          expectedRevision: 'no_stream',
        });
        assert.equal(result.nextExpectedRevision, 1);
        const read = await store.readStream(name);
        assert.deepEqual(
          read.map((event) => [event.type, event.revision, event.streamName]),
          [
            ['A', 0, name],
            ['B', 1, name],
          ],
        );
        assert.equal(result.position, read[1].position);
        assert.notEqual(read[0].position, read[1].position);
      });

      it('refuses no_stream once the stream exists, reporting the actual revision', async () => {
        const name = stream();
        await store.appendToStream(name, [newEvent('A'), newEvent('B')], { expectedRevision: 'no_stream' });
        await assertConflict(store.appendToStream(name, [newEvent('C')], { expectedRevision: 'no_stream' }), {
          streamName: name,
          expected: 'no_stream',
          actual: 1,
        });
        assert.equal(types(await store.readStream(name)), 'A,B', 'a refused append writes nothing');
      });

      it('refuses stream_exists for a missing stream (actual -1) and accepts it for an existing one', async () => {
        const name = stream();
        await assertConflict(store.appendToStream(name, [newEvent('A')], { expectedRevision: 'stream_exists' }), {
          streamName: name,
          expected: 'stream_exists',
          actual: -1,
        });
        assert.deepEqual(await store.readStream(name), []);
        await store.appendToStream(name, [newEvent('A')], { expectedRevision: 'no_stream' });
        const result = await store.appendToStream(name, [newEvent('B')], { expectedRevision: 'stream_exists' });
        assert.equal(result.nextExpectedRevision, 1);
      });

      it('accepts an exact revision only when it is the last event’s', async () => {
        const name = stream();
        await assertConflict(store.appendToStream(name, [newEvent('A')], { expectedRevision: 0 }), {
          streamName: name,
          expected: 0,
          actual: -1,
        });
        await store.appendToStream(name, [newEvent('A'), newEvent('B')], { expectedRevision: 'no_stream' });
        await assertConflict(store.appendToStream(name, [newEvent('C')], { expectedRevision: 0 }), {
          streamName: name,
          expected: 0,
          actual: 1,
        });
        await assertConflict(store.appendToStream(name, [newEvent('C')], { expectedRevision: 5 }), {
          streamName: name,
          expected: 5,
          actual: 1,
        });
        const result = await store.appendToStream(name, [newEvent('C'), newEvent('D')], { expectedRevision: 1 });
        assert.equal(result.nextExpectedRevision, 3);
        assert.equal(types(await store.readStream(name)), 'A,B,C,D');
      });

      it('accepts any whether or not the stream exists', async () => {
        const name = stream();
        assert.equal(
          (await store.appendToStream(name, [newEvent('A')], { expectedRevision: 'any' })).nextExpectedRevision,
          0,
        );
        assert.equal(
          (await store.appendToStream(name, [newEvent('B')], { expectedRevision: 'any' })).nextExpectedRevision,
          1,
        );
        assert.deepEqual(
          (await store.readStream(name)).map((event) => event.revision),
          [0, 1],
        );
      });

      it('treats a retried append (the same ids at the same expected revision) as done: nothing is written twice', async () => {
        const name = stream();
        const first = [newEvent('A'), newEvent('B')];
        const written = await store.appendToStream(name, first, { expectedRevision: 'no_stream' });
        const retried = await store.appendToStream(
          name,
          first.map((event) => ({ ...event })),
          { expectedRevision: 'no_stream' },
        );
        assert.equal(retried.nextExpectedRevision, written.nextExpectedRevision);
        const next = [newEvent('C')];
        const later = await store.appendToStream(name, next, { expectedRevision: 1 });
        assert.equal(
          (await store.appendToStream(name, next, { expectedRevision: 1 })).nextExpectedRevision,
          later.nextExpectedRevision,
          'also after the stream moved on',
        );
        assert.deepEqual(
          (await store.readStream(name)).map((event) => event.type),
          ['A', 'B', 'C'],
        );
        if (options.refusesReusedEventIds) {
          assert.equal(retried.position, written.position, "and answers with the first append's position");
          assert.equal(
            (await store.appendToStream(name, first, { expectedRevision: 'any' })).nextExpectedRevision,
            1,
            "with 'any', wherever they are in the stream",
          );
        }
      });

      if (options.refusesReusedEventIds) {
        it('refuses a stored event id anywhere else (another stream, another revision, mixed with new ids) and writes nothing of that append', async () => {
          const name = stream();
          const stored = newEvent('A');
          await store.appendToStream(name, [stored], { expectedRevision: 'no_stream' });
          const other = stream();
          const refusals = [
            store.appendToStream(other, [newEvent('B'), { ...stored }], { expectedRevision: 'any' }),
            store.appendToStream(name, [{ ...stored }], { expectedRevision: 0 }),
            store.appendToStream(name, [{ ...stored }, newEvent('B')], { expectedRevision: 'no_stream' }),
          ];
          for (const refusal of refusals) {
            await assert.rejects(refusal, (error: unknown) => {
              assert.ok(error instanceof DuplicateEventError, `expected DuplicateEventError, got ${String(error)}`);
              assert.equal(error.eventId, stored.id);
              return true;
            });
          }
          assert.deepEqual(await store.readStream(other), []);
          assert.equal((await store.readStream(name)).length, 1);
          assert.equal(
            (await store.appendToStream(other, [newEvent('C')], { expectedRevision: 'no_stream' }))
              .nextExpectedRevision,
            0,
          );
        });
      } else {
        it(
          'refuses a stored event id outside a retried append (not promised: this server accepts a stored id again elsewhere)',
        );
      }

      it('lets exactly one of racing appends at the same expected revision win, every time', async () => {
        for (let round = 0; round < 25; round += 1) {
          const name = stream();
          await store.appendToStream(name, [newEvent('Start')], { expectedRevision: 'no_stream' });
          const racers = Array.from({ length: 5 }, (_, racer) => newEvent('Next', { racer }));
          const results = await Promise.allSettled(
            racers.map((event) => store.appendToStream(name, [event], { expectedRevision: 0 })),
          );
          const winners = results.filter((result) => result.status === 'fulfilled');
          assert.equal(winners.length, 1, `round ${round}: one winner`);
          for (const result of results) {
            if (result.status === 'fulfilled') continue;
            const error: unknown = result.reason;
            assert.ok(error instanceof WrongExpectedRevisionError, `round ${round}: ${String(error)}`);
            assert.deepEqual([error.expected, error.actual], [0, 1]);
          }
          const read = await store.readStream(name);
          assert.equal(read.length, 2);
          assert.equal(read[1].id, racers[results.indexOf(winners[0])].id);
        }
      });
    });

    describe('reading a stream', () => {
      it('reads forwards, backwards, from a revision (inclusive) and up to a count', async () => {
        const name = stream();
        await store.appendToStream(
          name,
          ['A', 'B', 'C', 'D', 'E'].map((type) => newEvent(type)),
          { expectedRevision: 'no_stream' },
        );
        assert.equal(types(await store.readStream(name)), 'A,B,C,D,E');
        assert.equal(types(await store.readStream(name, { direction: 'forwards', fromRevision: 2 })), 'C,D,E');
        assert.equal(types(await store.readStream(name, { maxCount: 2 })), 'A,B');
        assert.equal(types(await store.readStream(name, { fromRevision: 1, maxCount: 2 })), 'B,C');
        assert.equal(types(await store.readStream(name, { direction: 'backwards' })), 'E,D,C,B,A');
        assert.equal(types(await store.readStream(name, { direction: 'backwards', maxCount: 1 })), 'E');
        assert.equal(
          types(await store.readStream(name, { direction: 'backwards', fromRevision: 3, maxCount: 2 })),
          'D,C',
        );
        assert.deepEqual(await store.readStream(name, { fromRevision: 5 }), []);
      });

      it('reads a missing stream as empty, in either direction', async () => {
        assert.deepEqual(await store.readStream(stream()), []);
        assert.deepEqual(await store.readStream(stream(), { direction: 'backwards' }), []);
      });

      it('round-trips data, metadata and the creation time', async () => {
        const name = stream();
        const before = Date.now();
        const data = { n: 1, text: 'ü ✓', nested: { s: 'x', none: null }, list: [1, 'two', { three: 3 }] };
        const metadata = { correlationId: 'corr', causationId: 'cause', commandType: 'DoIt', extra: { k: 1 } };
        const appended = newEvent('A', data, metadata);
        await store.appendToStream(name, [appended, newEvent('B')], { expectedRevision: 'no_stream' });
        const [read, withoutMetadata] = await store.readStream(name);
        assert.equal(read.id, appended.id);
        assert.deepEqual(read.data, data);
        assert.deepEqual(read.metadata, metadata);
        assert.deepEqual(withoutMetadata.metadata, {});
        assert.ok(read.createdAt instanceof Date);
        assert.ok(
          Math.abs(read.createdAt.getTime() - before) < 60_000,
          `createdAt ${read.createdAt.toISOString()} is now`,
        );
      });
    });

    describe('reading all streams', () => {
      it('reads in global order, after a checkpoint, up to a count, filtered by stream prefix and event type', async () => {
        const one = stream('one');
        const two = stream('two');
        await store.appendToStream(one, [newEvent('X', { i: 1 }), newEvent('Y', { i: 2 })], {
          expectedRevision: 'no_stream',
        });
        await store.appendToStream(two, [newEvent('X', { i: 3 })], { expectedRevision: 'no_stream' });
        await store.appendToStream(one, [newEvent('Z', { i: 4 })], { expectedRevision: 1 });
        const order = (events: readonly RecordedEvent[]) => events.map((event) => event.data.i);

        const all = await readUntil(
          () => store.readAll({ filter: mine() }),
          (events) => events.length >= 4,
        );
        assert.deepEqual(order(all), [1, 2, 3, 4]);
        assert.deepEqual(order(await store.readAll({ filter: mine(), maxCount: 2 })), [1, 2]);
        assert.deepEqual(order(await store.readAll({ filter: mine(), after: all[1].position })), [3, 4]);
        assert.deepEqual(order(await store.readAll({ filter: mine(), after: all[1].position, maxCount: 1 })), [3]);
        assert.deepEqual(await store.readAll({ filter: mine(), after: all[3].position }), []);
        assert.deepEqual(order(await store.readAll({ filter: { streamPrefixes: [`${one}`] } })), [1, 2, 4]);
        assert.deepEqual(order(await store.readAll({ filter: { streamPrefixes: [two, one] } })), [1, 2, 3, 4]);
        assert.deepEqual(order(await store.readAll({ filter: { ...mine(), eventTypes: ['X'] } })), [1, 3]);
        assert.deepEqual(order(await store.readAll({ filter: { ...mine(), eventTypes: ['Y', 'Z'] } })), [2, 4]);
        assert.deepEqual(order(await store.readAll({ filter: { streamPrefixes: [two], eventTypes: ['Y'] } })), []);
        const unfiltered = await store.readAll({ after: all[0].position, maxCount: 1 });
        assert.equal(unfiltered.length, 1, 'a checkpoint from a filtered read works without the filter');
      });
    });

    describe('ordering positions', () => {
      it('compares positions in the order readAll gives, and the head is at or after every append', async () => {
        const name = stream();
        const appended = await store.appendToStream(name, [newEvent('A', { i: 1 }), newEvent('A', { i: 2 })], {
          expectedRevision: 'no_stream',
        });
        const head = await store.headPosition();
        assert.ok(
          head !== null && store.compare(head, appended.position) >= 0,
          'the head is at or after the last append',
        );
        const [first, second] = await store.readStream(name);
        assert.ok(store.compare(first.position, second.position) < 0);
        assert.ok(store.compare(second.position, first.position) > 0);
        assert.equal(store.compare(second.position, appended.position), 0);
      });

      it('reports the scan moving past events the filter skips', async () => {
        await store.appendToStream(stream(), [newEvent('Wanted')], { expectedRevision: 'no_stream' });
        const subscription = store.subscribeToAll({ filter: { ...mine(), eventTypes: ['Wanted'] } });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          await take(iterator, 1);
          const skipped = await store.appendToStream(stream(), [newEvent('Skipped')], {
            expectedRevision: 'no_stream',
          });
          const deadline = Date.now() + 10_000;
          for (;;) {
            const next = await Promise.race([
              iterator.next(),
              new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), deadline - Date.now()).unref()),
            ]);
            assert.ok(next !== 'timeout' && next.done !== true, 'the scan reached the skipped event in time');
            assert.deepEqual(next.value.events, []);
            if (store.compare(next.value.scannedTo, skipped.position) >= 0) break;
          }
        } finally {
          await subscription.close();
        }
      });
    });

    describe('subscribing to all streams', () => {
      it('catches up, then follows live appends in the order readAll gives', async () => {
        const one = stream();
        await store.appendToStream(one, [newEvent('A', { i: 1 }), newEvent('A', { i: 2 })], {
          expectedRevision: 'no_stream',
        });
        const subscription = store.subscribeToAll({ filter: mine(), batchSize: 1 });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          assert.deepEqual(
            (await take(iterator, 2)).map((event) => event.data.i),
            [1, 2],
          );
          const live = take(iterator, 3);
          await store.appendToStream(stream(), [newEvent('B', { i: 3 })], { expectedRevision: 'no_stream' });
          await store.appendToStream(one, [newEvent('C', { i: 4 }), newEvent('C', { i: 5 })], { expectedRevision: 1 });
          const received = await live;
          assert.deepEqual(
            received.map((event) => event.data.i),
            [3, 4, 5],
          );
          const all = await readUntil(
            () => store.readAll({ filter: mine() }),
            (events) => events.length >= 5,
          );
          assert.deepEqual(
            received.map((event) => event.position),
            all.slice(2).map((event) => event.position),
          );
        } finally {
          await subscription.close();
        }
      });

      it('delivers only what the filter selects, live as well as caught up', async () => {
        const kept = stream();
        const ignored = `other${category}-${randomUUID()}`;
        await store.appendToStream(kept, [newEvent('Wanted', { i: 1 }), newEvent('Unwanted', { i: 2 })], {
          expectedRevision: 'no_stream',
        });
        await store.appendToStream(ignored, [newEvent('Wanted', { i: 0 })], { expectedRevision: 'no_stream' });
        const subscription = store.subscribeToAll({ filter: { ...mine(), eventTypes: ['Wanted', 'AlsoWanted'] } });
        const iterator = subscription[Symbol.asyncIterator]();
        try {
          assert.deepEqual(
            (await take(iterator, 1)).map((event) => event.data.i),
            [1],
          );
          const live = take(iterator, 2);
          await store.appendToStream(ignored, [newEvent('Wanted', { i: 0 })], { expectedRevision: 0 });
          await store.appendToStream(kept, [newEvent('Unwanted', { i: 3 }), newEvent('AlsoWanted', { i: 4 })], {
            expectedRevision: 1,
          });
          await store.appendToStream(stream(), [newEvent('Wanted', { i: 5 })], { expectedRevision: 'no_stream' });
          assert.deepEqual(
            (await live).map((event) => event.data.i),
            [4, 5],
          );
          const extra = await nextWithin(iterator, 300);
          assert.equal(extra, 'timeout', 'nothing else arrives');
        } finally {
          await subscription.close();
        }
      });

      it('resumes after a checkpoint', async () => {
        const name = stream();
        await store.appendToStream(name, [newEvent('A', { i: 1 }), newEvent('A', { i: 2 }), newEvent('A', { i: 3 })], {
          expectedRevision: 'no_stream',
        });
        const [first] = await store.readStream(name);
        const subscription = store.subscribeToAll({ after: first.position, filter: mine() });
        try {
          assert.deepEqual(
            (await take(subscription[Symbol.asyncIterator](), 2)).map((event) => event.data.i),
            [2, 3],
          );
        } finally {
          await subscription.close();
        }
      });

      it('ends the iteration when the subscription is closed, even while waiting for events', async () => {
        await store.appendToStream(stream(), [newEvent('A')], { expectedRevision: 'no_stream' });
        const subscription = store.subscribeToAll({ filter: mine() });
        const iterator = subscription[Symbol.asyncIterator]();
        await take(iterator, 1);
        const pending = nextWithin(iterator, 5_000);
        await subscription.close();
        assert.deepEqual(await pending, { done: true, value: undefined });
      });

      it('ends open subscriptions when the store is closed; ping answers until then', async () => {
        assert.equal(await store.ping(), true);
        await store.appendToStream(stream(), [newEvent('A')], { expectedRevision: 'no_stream' });
        const subscription = store.subscribeToAll({ filter: mine() });
        const iterator = subscription[Symbol.asyncIterator]();
        await take(iterator, 1);
        const pending = nextWithin(iterator, 5_000);
        await store.close();
        assert.deepEqual(await pending, { done: true, value: undefined });
        assert.equal(await store.ping(), false);
      });
    });
  });
}
