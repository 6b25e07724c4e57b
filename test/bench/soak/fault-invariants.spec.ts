import assert from 'node:assert/strict';
import { RECOVERY_BOUND_MS, checkFaults } from '../../../bench/soak/fault-invariants.js';
import { fault } from './soak-records.js';

describe('soak fault invariants', () => {
  it('hold for a fault injected and recovered from within the bound of its end', () => {
    assert.deepEqual(checkFaults([fault('kill-worker', 0, 3_000, 3_000 + RECOVERY_BOUND_MS)]), []);
  });

  it('break for a fault that could not be injected (threw, nothing to kill, only a restarting process)', () => {
    const broken = checkFaults([{ ...fault('kill-warm-helpers', 0, 0, null), failure: 'no warm helper was running' }]);
    assert.equal(broken.length, 1);
    assert.match(broken[0], /kill-warm-helpers.*could not be injected: no warm helper was running/);
  });

  it('break for a fault never recovered from, or recovered from past the bound', () => {
    assert.match(checkFaults([fault('restart-nats', 0, 2_000, null)])[0], /no download submitted after it completed/);
    assert.match(
      checkFaults([fault('restart-postgres', 0, 2_000, 2_001 + RECOVERY_BOUND_MS)])[0],
      /recovered only after/,
    );
  });
});
