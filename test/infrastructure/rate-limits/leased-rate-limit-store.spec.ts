import assert from 'node:assert/strict';
import type { BucketState } from '../../../application/ports/rate-limit-store.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { MemoryWindowCounter } from '../../../infrastructure/rate-limits/memory-window-counter.js';
import type { WindowCount, WindowCounter } from '../../../infrastructure/rate-limits/window-counter.js';

const SECOND = 1_000;

/** The shared count with a hand-moved clock, starting at a second's first millisecond, and a record of each addition. */
class ScriptedCounter implements WindowCounter {
  now = 1_000 * SECOND;
  readonly calls: Array<{ second: number; points: number }> = [];
  /** When set, the count answers only once it is released: leases in flight pile up. */
  gate: Promise<void> | null = null;
  private readonly counts = new MemoryWindowCounter();

  get second(): number {
    return Math.floor(this.now / SECOND);
  }

  points(): number[] {
    return this.calls.map((call) => call.points);
  }

  async add(bucket: string, epochSecond: number, limit: number, points: number): Promise<WindowCount> {
    this.calls.push({ second: epochSecond, points });
    if (this.gate !== null) await this.gate;
    return this.counts.add(bucket, epochSecond, limit, points);
  }
}

function storeOn(shared: ScriptedCounter, share = 0.1, counter: WindowCounter = shared): LeasedRateLimitStore {
  return new LeasedRateLimitStore(counter, share, () => shared.now);
}

/** Holds the shared count's answers until the returned function is called. */
function holdAnswers(shared: ScriptedCounter): () => void {
  let release!: () => void;
  shared.gate = new Promise<void>((resolve) => (release = resolve));
  return () => {
    shared.gate = null;
    release();
  };
}

/** Whether `request` is answered before anything the shared count could answer: i.e. from memory. */
async function answeredFromMemory(request: Promise<BucketState>): Promise<boolean> {
  const waited = new Promise<'waited'>((resolve) => setImmediate(() => resolve('waited')));
  return (await Promise.race([request.then(() => 'answered' as const), waited])) === 'answered';
}

describe('leased request rate limit store', () => {
  it('admits exactly the limit in one instance, counting down, with one shared count per lease, then refuses from memory', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    const decisions: BucketState[] = [];
    for (let i = 0; i < 110; i += 1) decisions.push(await store.consume('key:a', 100));
    assert.equal(decisions.filter((decision) => decision.allowed).length, 100);
    assert.deepEqual(
      decisions.slice(0, 100).map((decision) => decision.remaining),
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    assert.ok(decisions.slice(100).every((decision) => !decision.allowed && decision.msBeforeReset === SECOND));
    assert.deepEqual(shared.points(), [...Array(10).fill(10), 1], 'ten leases of ten, then one refused request');
  });

  it('never leases more than the shared count was last seen to have left, so a lone instance is never refused early', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared, 0.3);
    const allowed = [];
    for (let i = 0; i < 12; i += 1) allowed.push((await store.consume('key:b', 10)).allowed);
    assert.deepEqual(allowed, [...Array(10).fill(true), false, false]);
    assert.deepEqual(shared.points().slice(0, 4), [3, 3, 3, 1]);
  });

  it('admits exactly what another instance left when a lease is refused, one request at a time', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    await store.consume('key:k', 100);
    // Another instance counts 85 of the 90 this one saw left: its next lease of ten is refused, and costs nothing.
    await shared.add('key:k', shared.second, 100, 85);
    let admitted = 0;
    for (let i = 0; i < 30; i += 1) if ((await store.consume('key:k', 100)).allowed) admitted += 1;
    assert.equal(admitted + 1, 15, 'its own lease of ten and the five left');
    // One request shows four left, which the next lease takes exactly; the last request is refused.
    assert.deepEqual(shared.points(), [10, 85, 10, 1, 4, 1]);
  });

  it('lets several instances together admit no more than the limit, and at most a lease and a quarter per other instance fewer', async () => {
    const shared = new ScriptedCounter();
    const instances = [0, 1, 2].map(() => storeOn(shared));
    let admitted = 0;
    for (let i = 0; i < 300; i += 1) if ((await instances[i % 3].consume('account:c', 100)).allowed) admitted += 1;
    assert.ok(admitted <= 100, `admitted ${admitted}`);
    assert.ok(admitted >= 100 - 2 * (9 + 2), `admitted ${admitted}`);
  });

  it('lets requests that arrive while a lease is being taken wait for it instead of each taking one', async () => {
    const shared = new ScriptedCounter();
    const release = holdAnswers(shared);
    const store = storeOn(shared);
    const pending = Array.from({ length: 25 }, () => store.consume('key:d', 100));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(shared.points(), [10], 'one lease in flight');
    release();
    const decisions = await Promise.all(pending);
    assert.ok(decisions.every((decision) => decision.allowed));
    assert.deepEqual(shared.points(), [10, 10, 10]);
  });

  it('takes the next lease ahead, so requests go on being admitted while the shared count answers slowly', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    // A lease of ten: the first request takes it and six more leave three; the next leaves a quarter and takes one ahead.
    for (let i = 0; i < 7; i += 1) await store.consume('key:h', 100);
    assert.deepEqual(shared.points(), [10], 'not yet');
    const release = holdAnswers(shared);
    const eighth = await store.consume('key:h', 100);
    assert.deepEqual(shared.points(), [10, 10], 'the next lease is on its way');
    // The count has not answered, yet the last two of the lease are admitted at once.
    for (let i = 0; i < 2; i += 1) assert.equal(await answeredFromMemory(store.consume('key:h', 100)), true);
    const eleventh = store.consume('key:h', 100);
    release();
    assert.equal((await eleventh).remaining, 89, 'counted against the limit once, whichever lease served it');
    assert.equal(eighth.remaining, 92);
  });

  it('takes the next window’s first lease before it starts while a bucket is busy, so no window opens with a wait', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    const start = shared.second;
    for (let i = 0; i < 3; i += 1) await store.consume('key:n', 100);
    shared.now += 850;
    await store.consume('key:n', 100);
    assert.deepEqual(shared.calls.at(-1), { second: start + 1, points: 10 }, 'counted in the next second, ahead');
    await new Promise((resolve) => setImmediate(resolve));
    const release = holdAnswers(shared);
    shared.now += 150;
    const first = store.consume('key:n', 100);
    assert.equal(await answeredFromMemory(first), true, 'the first request of the window waits for nothing');
    assert.deepEqual(await first, { allowed: true, remaining: 99, msBeforeReset: SECOND });
    release();
  });

  it('takes no lease ahead for a quiet bucket near a window’s end, nor once the shared count is seen to be empty', async () => {
    const shared = new ScriptedCounter();
    const quiet = storeOn(shared);
    shared.now += 900;
    await quiet.consume('key:q', 100);
    assert.deepEqual(shared.calls, [{ second: shared.second, points: 10 }], 'one request is not busy');

    const early = new ScriptedCounter();
    const store = storeOn(early, 0.5);
    for (let i = 0; i < 10; i += 1) await store.consume('key:i', 10);
    assert.deepEqual(early.points(), [5, 5], 'two leases make the limit, and nothing is taken ahead after them');
    assert.equal((await store.consume('key:i', 10)).allowed, false);
  });

  it('drops what is left of a lease when its window ends', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    await store.consume('key:e', 100);
    shared.now += SECOND;
    const next = await store.consume('key:e', 100);
    assert.deepEqual(shared.points(), [10, 10], 'a new lease in the new window');
    assert.equal(next.remaining, 99);
    assert.equal(shared.calls[1].second, shared.calls[0].second + 1);
  });

  it('sends every request to the shared count when the limit is too small to split, or leasing is off, until it refuses', async () => {
    const shared = new ScriptedCounter();
    for (const [limit, share] of [
      [3, 0.1],
      [3, 0],
    ] as const) {
      shared.calls.length = 0;
      const store = storeOn(shared, share);
      const allowed = [];
      for (let i = 0; i < 6; i += 1) allowed.push((await store.consume(`key:${share}`, limit)).allowed);
      assert.deepEqual(allowed, [true, true, true, false, false, false]);
      assert.deepEqual(
        shared.points(),
        [1, 1, 1, 1],
        'a spent bucket is refused from memory for the rest of its window',
      );
    }
  });

  it('counts several requests at once in the shared count as they are, outside any lease', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    assert.equal((await store.consume('key:g', 100, 95)).remaining, 5);
    assert.deepEqual(shared.points(), [95]);
    assert.equal((await store.consume('key:g', 100, 6)).allowed, false);
  });

  it('takes a lease again after the shared count failed to answer', async () => {
    const shared = new ScriptedCounter();
    const failing: WindowCounter = {
      add: async (bucket, second, limit, points) => {
        if (shared.calls.length === 0) {
          shared.calls.push({ second, points: -1 });
          throw new Error('connection refused');
        }
        return shared.add(bucket, second, limit, points);
      },
    };
    const store = storeOn(shared, 0.1, failing);
    await assert.rejects(store.consume('key:f', 100), /connection refused/);
    assert.equal((await store.consume('key:f', 100)).allowed, true);
  });

  it('decides at once from a lease it holds, counting with the requests it awaits, and leaves the rest to consume', async () => {
    const shared = new ScriptedCounter();
    const store = storeOn(shared);
    assert.equal(store.consumeAtOnce('key:n', 100), undefined, 'no lease held yet');
    assert.equal(store.consumeAtOnce('key:n', 10), undefined, 'a limit too small to lease');
    assert.deepEqual(shared.calls, [], 'nothing counted');
    const admitted: BucketState[] = [await store.consume('key:n', 100)];
    for (let state = store.consumeAtOnce('key:n', 100); state !== undefined; state = store.consumeAtOnce('key:n', 100))
      admitted.push(state);
    assert.deepEqual(
      admitted.map((state) => state.remaining),
      Array.from({ length: 10 }, (_, index) => 99 - index),
    );
    for (let i = 0; i < 90; i += 1) assert.equal((await store.consume('key:n', 100)).allowed, true);
    assert.equal((await store.consume('key:n', 100)).allowed, false);
    assert.equal(store.consumeAtOnce('key:n', 100)?.allowed, false, 'refused at once once spent');
  });
});
