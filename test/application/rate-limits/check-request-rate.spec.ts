import assert from 'node:assert/strict';
import { CheckRequestRate } from '../../../application/rate-limits/check-request-rate.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { MemoryWindowCounter } from '../../../infrastructure/rate-limits/memory-window-counter.js';

const caller = { accountId: 'account-1', keyId: 'key-1', planId: null };

describe('application: a request counted against its key and account', () => {
  it('decides without a promise once both buckets hold leases, and counts each bucket once either way', async () => {
    const check = new CheckRequestRate(new LeasedRateLimitStore(new MemoryWindowCounter(), 0.1), {
      defaults: { perKey: 100, perAccount: 200 },
      byPlan: {},
    });
    const first = check.execute(caller);
    assert.ok(first instanceof Promise, 'the first request takes the leases');
    assert.equal((await first)?.remaining, 99);
    const second = check.execute(caller);
    assert.ok(!(second instanceof Promise));
    assert.equal(second?.scope, 'key');
    assert.equal(second?.remaining, 98);
    let admitted = 2;
    for (;;) {
      const decision = await check.execute(caller);
      if (!decision?.allowed) break;
      admitted += 1;
    }
    assert.equal(admitted, 100, "the key's allowance, each request counted once");
  });

  it('counts a bucket memory decided once, while the other goes to the shared count', async () => {
    // The account's limit is too small to lease: each of its counts goes to the shared count.
    const store = new LeasedRateLimitStore(new MemoryWindowCounter(), 0.1, () => 1_000_000);
    const check = new CheckRequestRate(store, { defaults: { perKey: 100, perAccount: 10 }, byPlan: {} });
    for (let i = 0; i < 5; i += 1) assert.equal((await check.execute(caller))?.allowed, true);
    assert.equal(store.consumeAtOnce('key:key-1', 100)?.remaining, 94, 'five requests and this one');
  });
});
