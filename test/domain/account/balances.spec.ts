import assert from 'node:assert/strict';
import { accountBalances } from '../../../domain/account/balances.js';
import { addMonthsUtc, periodContaining } from '../../../domain/account/billing-period.js';
import { accountDecider } from '../../../domain/account/decider.js';
import { foldEvents } from '../../support/fold-events.js';
import { DEFAULT_PLAN_CATALOG } from '../../../infrastructure/config/plan-catalog.js';

describe('billing periods', () => {
  it('adds months without drifting from the anchor day', () => {
    const jan31 = Date.parse('2026-01-31T10:00:00Z');
    assert.equal(new Date(addMonthsUtc(jan31, 1)).toISOString(), '2026-02-28T10:00:00.000Z');
    assert.equal(new Date(addMonthsUtc(jan31, 2)).toISOString(), '2026-03-31T10:00:00.000Z');
    assert.equal(new Date(addMonthsUtc(jan31, 13)).toISOString(), '2027-02-28T10:00:00.000Z');
  });
  it('finds the period containing a moment, with the end exclusive', () => {
    const anchor = Date.parse('2026-01-31T10:00:00Z');
    const p = periodContaining(anchor, Date.parse('2026-03-31T10:00:00Z'));
    assert.deepEqual(
      [p.index, new Date(p.start).toISOString(), new Date(p.end).toISOString()],
      [2, '2026-03-31T10:00:00.000Z', '2026-04-30T10:00:00.000Z'],
    );
  });
});

describe('account balances', () => {
  const accountId = 'a';
  const t0 = '2026-01-10T00:00:00.000Z';
  const starter = DEFAULT_PLAN_CATALOG.starter;
  const state = foldEvents(accountDecider, [
    { type: 'AccountOpened', data: { accountId, name: 'n', email: 'e@x', openedAt: t0 } },
    {
      type: 'PlanChanged',
      data: { accountId, plan: starter, periodStart: t0, periodEnd: '2026-02-10T00:00:00.000Z', changedAt: t0 },
    },
    { type: 'DownloadReserved', data: { accountId, jobId: 'j', reservedAt: t0 } },
    {
      type: 'BandwidthCharged',
      data: { accountId, jobId: 'j', fileSizeBytes: 1, bandwidthMb: 20, downloads: 1, chargedAt: t0 },
    },
    { type: 'ExtraUnitsGranted', data: { accountId, feature: 'info', units: 7, reason: null, grantedAt: t0 } },
  ]);

  it('shows granted including extra grants, used, remaining and the reset time; add-ons only when enabled', () => {
    const balances = accountBalances(state, Date.parse('2026-01-20T00:00:00Z'));
    assert.deepEqual(Object.keys(balances).sort(), ['bandwidth_mb', 'download_count', 'info']);
    const resetsAt = Date.parse('2026-02-10T00:00:00Z');
    assert.deepEqual(balances.bandwidth_mb, {
      granted: 50_000,
      used: 20,
      remaining: 49_980,
      unlimited: false,
      resetsAt,
    });
    assert.deepEqual(balances.download_count, { granted: 500, used: 1, remaining: 499, unlimited: false, resetsAt });
    assert.deepEqual(balances.info, { granted: 2_007, used: 0, remaining: 2_007, unlimited: false, resetsAt });
  });
  it('reads a period that ended since the last event as renewed', () => {
    const balances = accountBalances(state, Date.parse('2026-02-11T00:00:00Z'));
    assert.deepEqual(balances.download_count, {
      granted: 500,
      used: 0,
      remaining: 500,
      unlimited: false,
      resetsAt: Date.parse('2026-03-10T00:00:00Z'),
    });
  });
});
