import assert from 'node:assert/strict';
import { checkPhase, nextCheckAt, nextCheckNotBefore } from '../../../domain/subscription/check-schedule.js';

const HOUR_MS = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

/** Ids shaped like the service's (random UUIDs), from a fixed seed so the spread measured is the same every run. */
function uuidLikeIds(count: number): string[] {
  let state = 20260301;
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return (state >>> 24).toString(16).padStart(2, '0').slice(-1);
    }).join('');
  return Array.from({ length: count }, () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`);
}

describe('check schedule', () => {
  it("puts each subscription's checks at its own phase of the interval, one interval apart, strictly after the time given", () => {
    const start = Date.parse('2026-03-01T10:17:23.456Z');
    const first = Date.parse(nextCheckAt('sub-1', 60, at(start)));
    assert.ok(first > start && first <= start + HOUR_MS, at(first));
    const second = Date.parse(nextCheckAt('sub-1', 60, at(first)));
    assert.equal(second - first, HOUR_MS);
    // However late a check ran, the next stays on the phase.
    assert.equal(Date.parse(nextCheckAt('sub-1', 60, at(first + 12 * 60_000))), second);
    assert.equal((first % HOUR_MS) / HOUR_MS, Math.floor(checkPhase('sub-1') * HOUR_MS) / HOUR_MS);
  });

  it('gives one id the same phase every time, and phases in [0, 1)', () => {
    assert.equal(checkPhase('sub-1'), checkPhase('sub-1'));
    assert.notEqual(checkPhase('sub-1'), checkPhase('sub-2'));
    for (let n = 0; n < 1000; n += 1) {
      const phase = checkPhase(`sub-${n}`);
      assert.ok(phase >= 0 && phase < 1, String(phase));
    }
  });

  it('spreads a thousand hourly subscriptions over the hour: no minute holds more than twice its share', () => {
    const perMinute = new Array<number>(60).fill(0);
    for (const id of uuidLikeIds(1000)) {
      const checkAt = Date.parse(nextCheckAt(id, 60, '2026-03-01T00:00:00.000Z'));
      perMinute[Math.floor((checkAt % HOUR_MS) / 60_000)] += 1;
    }
    const busiest = Math.max(...perMinute);
    assert.ok(busiest <= 2 * Math.ceil(1000 / 60), `busiest minute: ${busiest} checks`);
    assert.ok(Math.min(...perMinute) > 0, 'a minute with no check');
  });

  it('puts a check off to the first time on its phase at or after a back-off', () => {
    const now = '2026-03-01T10:00:00.000Z';
    const notBefore = Date.parse('2026-03-01T13:30:00.000Z');
    const checkAt = Date.parse(nextCheckNotBefore('sub-1', 60, now, at(notBefore)));
    assert.ok(checkAt >= notBefore && checkAt < notBefore + HOUR_MS, at(checkAt));
    assert.equal(checkAt % HOUR_MS, Date.parse(nextCheckAt('sub-1', 60, now)) % HOUR_MS);
    assert.equal(nextCheckNotBefore('sub-1', 60, now, '2026-03-01T09:00:00.000Z'), nextCheckAt('sub-1', 60, now));
  });
});
