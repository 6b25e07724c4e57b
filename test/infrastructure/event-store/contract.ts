import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  DuplicateEventError,
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';

export type EventStoreFactory = () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>;

const event = (type: string, data: Record<string, unknown> = {}, metadata?: Record<string, unknown>): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata,
});

/** Takes from a subscription until `count` events arrived (or fails after a timeout). */
export async function take(iterator: AsyncIterator<RecordedEvent[]>, count: number, timeoutMs = 10_000): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  while (received.length < count) {
    const next = await Promise.race([
      iterator.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out with ${received.length}/${count} events`)), Math.max(1, deadline - Date.now()))),
    ]);
    if (next.done) break;
    assert.ok(next.value.length > 0, 'batches are never empty');
    received.push(...next.value);
  }
  return received;
}

/**
 * The behaviour every event store adapter must share; each adapter's spec
 * runs it with a factory of fresh stores. Stream names are unique per test,
 * so it also runs against a store that keeps other data.
 */
export function describeEventStoreContract(label: string, factory: EventStoreFactory): void {
  describe(`event store contract: ${label}`, function () {
    this.timeout(30_000);
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let prefix: string;
    const stream = (name: string) => `${prefix}${name}-${randomUUID()}`;

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
      prefix = `c${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    });
    afterEach(async () => cleanup());

    it('appends to a new stream with no_stream and numbers revisions from 0', async () => {
      const name = stream('a');
      const result = await store.appendToStream(name, [event('A'), event('B')], { expectedRevision: 'no_stream' });
      assert.equal(result.nextExpectedRevision, 1);
      const read = await store.readStream(name);
      assert.deepEqual(read.map((e) => [e.type, e.revision, e.streamName]), [['A', 0, name], ['B', 1, name]]);
      assert.equal(read[1].position, result.position);
    });

    it('checks every kind of expected revision and reports the actual one on conflict', async () => {
      const name = stream('b');
      await assert.rejects(store.appendToStream(name, [event('A')], { expectedRevision: 'stream_exists' }), (error: unknown) => {
        assert.ok(error instanceof WrongExpectedRevisionError);
        assert.equal(error.actual, -1);
        assert.equal(error.streamName, name);
        return true;
      });
      await assert.rejects(store.appendToStream(name, [event('A')], { expectedRevision: 0 }), WrongExpectedRevisionError);
      await store.appendToStream(name, [event('A')], { expectedRevision: 'any' });
      await assert.rejects(store.appendToStream(name, [event('B')], { expectedRevision: 'no_stream' }), (error: unknown) => {
        assert.ok(error instanceof WrongExpectedRevisionError);
        assert.equal(error.actual, 0);
        assert.equal(error.expected, 'no_stream');
        return true;
      });
      await store.appendToStream(name, [event('B')], { expectedRevision: 'stream_exists' });
      await store.appendToStream(name, [event('C')], { expectedRevision: 1 });
      await assert.rejects(store.appendToStream(name, [event('D')], { expectedRevision: 1 }), (error: unknown) => error instanceof WrongExpectedRevisionError && error.actual === 2);
      assert.deepEqual((await store.readStream(name)).map((e) => e.type), ['A', 'B', 'C']);
    });

    it('round-trips data, metadata and the creation time', async () => {
      const name = stream('c');
      const before = Date.now();
      await store.appendToStream(name, [event('A', { n: 1, nested: { s: 'x' }, list: [1, 2] }, { correlationId: 'corr', causationId: 'cause' })], {
        expectedRevision: 'no_stream',
      });
      const [read] = await store.readStream(name);
      assert.deepEqual(read.data, { n: 1, nested: { s: 'x' }, list: [1, 2] });
      assert.equal(read.metadata.correlationId, 'corr');
      assert.equal(read.metadata.causationId, 'cause');
      assert.ok(read.createdAt instanceof Date);
      assert.ok(Math.abs(read.createdAt.getTime() - before) < 60_000);
      assert.match(read.id, /^[0-9a-f-]{36}$/);
    });

    it('reads forwards, backwards, from a revision and up to a count; a missing stream is empty', async () => {
      const name = stream('d');
      await store.appendToStream(name, ['A', 'B', 'C', 'D', 'E'].map((type) => event(type)), { expectedRevision: 'no_stream' });
      const types = (events: RecordedEvent[]) => events.map((e) => e.type).join('');
      assert.equal(types(await store.readStream(name, { fromRevision: 2 })), 'CDE');
      assert.equal(types(await store.readStream(name, { maxCount: 2 })), 'AB');
      assert.equal(types(await store.readStream(name, { direction: 'backwards' })), 'EDCBA');
      assert.equal(types(await store.readStream(name, { direction: 'backwards', fromRevision: 3, maxCount: 2 })), 'DC');
      assert.deepEqual(await store.readStream(stream('missing')), []);
    });

    it('refuses an event id that is already stored', async () => {
      const first = event('A');
      await store.appendToStream(stream('e'), [first], { expectedRevision: 'no_stream' });
      await assert.rejects(store.appendToStream(stream('f'), [{ ...first }], { expectedRevision: 'any' }), DuplicateEventError);
    });

    it('reads all in order after a checkpoint, filtered by type and by stream prefix', async () => {
      const one = stream('g');
      const two = `${prefix}other-${randomUUID()}`;
      await store.appendToStream(one, [event('X', { i: 1 }), event('Y', { i: 2 })], { expectedRevision: 'no_stream' });
      await store.appendToStream(two, [event('X', { i: 3 })], { expectedRevision: 'no_stream' });
      await store.appendToStream(one, [event('X', { i: 4 })], { expectedRevision: 1 });
      const mine = await store.readAll({ filter: { streamPrefixes: [prefix] }, maxCount: 100 });
      assert.deepEqual(mine.map((e) => e.data.i), [1, 2, 3, 4]);
      const onlyX = await store.readAll({ filter: { streamPrefixes: [prefix], eventTypes: ['X'] } });
      assert.deepEqual(onlyX.map((e) => e.data.i), [1, 3, 4]);
      const onlyOne = await store.readAll({ filter: { streamPrefixes: [`${prefix}g-`] } });
      assert.deepEqual(onlyOne.map((e) => e.data.i), [1, 2, 4]);
      const afterSecond = await store.readAll({ after: mine[1].position, filter: { streamPrefixes: [prefix] } });
      assert.deepEqual(afterSecond.map((e) => e.data.i), [3, 4]);
      const limited = await store.readAll({ filter: { streamPrefixes: [prefix] }, maxCount: 2 });
      assert.deepEqual(limited.map((e) => e.data.i), [1, 2]);
    });

    it('subscribes: catches up, then follows live appends, with filters', async () => {
      const name = stream('h');
      await store.appendToStream(name, [event('Old', { i: 1 }), event('Skip', { i: 2 })], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: [prefix], eventTypes: ['Old', 'New'] }, batchSize: 1 });
      const iterator = subscription[Symbol.asyncIterator]();
      assert.deepEqual((await take(iterator, 1)).map((e) => e.data.i), [1]);
      const live = take(iterator, 2);
      await store.appendToStream(name, [event('Skip', { i: 3 }), event('New', { i: 4 })], { expectedRevision: 1 });
      await store.appendToStream(stream('i'), [event('New', { i: 5 })], { expectedRevision: 'no_stream' });
      assert.deepEqual((await live).map((e) => e.data.i), [4, 5]);
      await subscription.close();
    });

    it('subscribes from a checkpoint, and close() ends the iteration', async () => {
      const name = stream('j');
      await store.appendToStream(name, [event('A', { i: 1 }), event('A', { i: 2 }), event('A', { i: 3 })], { expectedRevision: 'no_stream' });
      const [first] = await store.readStream(name);
      const subscription = store.subscribeToAll({ after: first.position, filter: { streamPrefixes: [prefix] } });
      const iterator = subscription[Symbol.asyncIterator]();
      assert.deepEqual((await take(iterator, 2)).map((e) => e.data.i), [2, 3]);
      const pending = iterator.next();
      await subscription.close();
      const end = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000))]);
      assert.deepEqual(end, { done: true, value: undefined });
    });

    it('lets exactly one of racing appends at the same expected revision win', async () => {
      for (let round = 0; round < 20; round += 1) {
        const name = stream('race');
        await store.appendToStream(name, [event('Start')], { expectedRevision: 'no_stream' });
        const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => store.appendToStream(name, [event('Next', { i })], { expectedRevision: 0 })));
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
        for (const rejected of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
          assert.ok(rejected.reason instanceof WrongExpectedRevisionError);
        }
        assert.equal((await store.readStream(name)).length, 2);
      }
    });
  });
}
