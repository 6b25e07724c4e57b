import assert from 'node:assert/strict';
import type { BucketState, RateLimitStore } from '../../../application/ports/rate-limit-store.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';

/** A shared bucket store with a hand-moved clock: fixed one-second windows, each starting at a bucket's first request. */
class ScriptedSharedStore implements RateLimitStore {
  now = 1_000_000;
  readonly calls: number[] = [];
  private readonly buckets = new Map<string, { used: number; endsAt: number }>();
  /** When set, the store answers only once it is released: leases in flight pile up. */
  gate: Promise<void> | null = null;

  async consume(bucket: string, limitPerSecond: number, points = 1): Promise<BucketState> {
    this.calls.push(points);
    if (this.gate !== null) await this.gate;
    let state = this.buckets.get(bucket);
    if (state === undefined || state.endsAt <= this.now) {
      state = { used: 0, endsAt: this.now + 1_000 };
      this.buckets.set(bucket, state);
    }
    state.used += points;
    const msBeforeReset = state.endsAt - this.now;
    return state.used <= limitPerSecond
      ? { allowed: true, remaining: limitPerSecond - state.used, msBeforeReset }
      : { allowed: false, remaining: 0, msBeforeReset };
  }
}

describe('leased request rate limit store', () => {
  it('admits exactly the limit in one instance, counting down the remaining requests, with one shared count per lease', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    const decisions: BucketState[] = [];
    for (let i = 0; i < 105; i += 1) decisions.push(await store.consume('key:a', 100));
    assert.equal(decisions.filter((decision) => decision.allowed).length, 100);
    assert.deepEqual(
      decisions.slice(0, 100).map((decision) => decision.remaining),
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    assert.ok(decisions.slice(100).every((decision) => !decision.allowed));
    assert.deepEqual(shared.calls.slice(0, 10), Array(10).fill(10), 'ten leases of ten');
  });

  it('never leases more than the shared bucket was last seen to have left, so a lone instance is never refused early', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.3, () => shared.now);
    const allowed = [];
    for (let i = 0; i < 12; i += 1) allowed.push((await store.consume('key:b', 10)).allowed);
    assert.deepEqual(allowed, [...Array(10).fill(true), false, false]);
    assert.deepEqual(shared.calls.slice(0, 4), [3, 3, 3, 1]);
  });

  it('lets several instances together admit no more than the limit, and at most a lease and a quarter per other instance fewer', async () => {
    const shared = new ScriptedSharedStore();
    const instances = [0, 1, 2].map(() => new LeasedRateLimitStore(shared, 0.1, () => shared.now));
    let admitted = 0;
    for (let i = 0; i < 300; i += 1) if ((await instances[i % 3].consume('account:c', 100)).allowed) admitted += 1;
    assert.ok(admitted <= 100, `admitted ${admitted}`);
    // Each other instance may be left with up to a lease and a quarter (less its first request) it cannot use.
    assert.ok(admitted >= 100 - 2 * (9 + 2), `admitted ${admitted}`);
  });

  it('lets requests that arrive while a lease is being taken wait for it instead of each taking one', async () => {
    const shared = new ScriptedSharedStore();
    let release!: () => void;
    shared.gate = new Promise<void>((resolve) => (release = resolve));
    const store = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    const pending = Array.from({ length: 25 }, () => store.consume('key:d', 100));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(shared.calls, [10], 'one lease in flight');
    shared.gate = null;
    release();
    const decisions = await Promise.all(pending);
    assert.ok(decisions.every((decision) => decision.allowed));
    assert.deepEqual(shared.calls, [10, 10, 10]);
  });

  it('takes the next lease ahead, so requests go on being admitted while the shared store answers slowly', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    // A lease of ten: the first request takes it and six more leave three; the next leaves a quarter and takes one ahead.
    for (let i = 0; i < 7; i += 1) await store.consume('key:h', 100);
    assert.deepEqual(shared.calls, [10], 'not yet');
    let release!: () => void;
    shared.gate = new Promise<void>((resolve) => (release = resolve));
    const eighth = await store.consume('key:h', 100);
    assert.deepEqual(shared.calls, [10, 10], 'the next lease is on its way');
    // The store has not answered, yet the last two of the lease are admitted at once.
    for (let i = 0; i < 2; i += 1) assert.equal((await store.consume('key:h', 100)).allowed, true);
    const eleventh = store.consume('key:h', 100);
    shared.gate = null;
    release();
    assert.equal((await eleventh).remaining, 89, 'counted against the limit once, whichever lease served it');
    assert.equal(eighth.remaining, 92);
  });

  it('takes no lease ahead once the shared bucket is seen to be empty, nor in the last moments of a window', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.5, () => shared.now);
    for (let i = 0; i < 10; i += 1) await store.consume('key:i', 10);
    assert.deepEqual(shared.calls, [5, 5], 'two leases make the limit, and nothing is taken ahead after them');
    assert.equal((await store.consume('key:i', 10)).allowed, false);

    const late = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    shared.calls.length = 0;
    await late.consume('key:j', 100);
    shared.now += 950;
    for (let i = 0; i < 8; i += 1) await late.consume('key:j', 100);
    assert.deepEqual(shared.calls, [10], 'a lease taken ahead now could land in the next window');
  });

  it('drops what is left of a lease when its window ends', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    await store.consume('key:e', 100);
    shared.now += 1_000;
    const next = await store.consume('key:e', 100);
    assert.deepEqual(shared.calls, [10, 10], 'a new lease in the new window');
    assert.equal(next.remaining, 99);
  });

  it('sends every request to the shared store when the limit is too small to split, or leasing is off', async () => {
    const shared = new ScriptedSharedStore();
    for (const [limit, share] of [
      [10, 0.1],
      [1_000, 0],
    ] as const) {
      shared.calls.length = 0;
      const store = new LeasedRateLimitStore(shared, share, () => shared.now);
      for (let i = 0; i < 5; i += 1) await store.consume(`key:${limit}`, limit);
      assert.deepEqual(shared.calls, [1, 1, 1, 1, 1]);
    }
  });

  it('counts several requests at once in the shared bucket as they are, outside any lease', async () => {
    const shared = new ScriptedSharedStore();
    const store = new LeasedRateLimitStore(shared, 0.1, () => shared.now);
    assert.equal((await store.consume('key:g', 100, 95)).remaining, 5);
    assert.deepEqual(shared.calls, [95]);
    assert.equal((await store.consume('key:g', 100, 6)).allowed, false);
  });

  it('takes a lease again after the shared store failed to answer', async () => {
    const shared = new ScriptedSharedStore();
    const failing: RateLimitStore = {
      consume: async (bucket, limit, points) => {
        if (shared.calls.length === 0) {
          shared.calls.push(-1);
          throw new Error('connection refused');
        }
        return shared.consume(bucket, limit, points);
      },
    };
    const store = new LeasedRateLimitStore(failing, 0.1, () => shared.now);
    await assert.rejects(store.consume('key:f', 100), /connection refused/);
    assert.equal((await store.consume('key:f', 100)).allowed, true);
  });
});
