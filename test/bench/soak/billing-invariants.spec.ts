import assert from 'node:assert/strict';
import type { AuditReport, LedgerEntry } from '../../../application/audit/replay-account-ledger.js';
import { type AccountBillingRecord, checkAccountBilling } from '../../../bench/soak/billing-invariants.js';
import type { JobLedger } from '../../../bench/soak/job-ledger.js';
import { ledgerWith } from './soak-records.js';

const AT = '2026-11-28T12:00:00.000Z';

/** A download charge of 20 MB, with the running balances after it. */
function charge(jobId: string, revision: number, downloadsBefore: number): LedgerEntry {
  return {
    kind: 'charge',
    at: AT,
    revision,
    jobId,
    fileSizeBytes: 1_000,
    bandwidthMb: 20,
    downloads: 1,
    balances: {
      download_count: { used: downloadsBefore + 1, remaining: 100 },
      bandwidth_mb: { used: (downloadsBefore + 1) * 20, remaining: 1_000 },
    },
  };
}

/** What the soak reads about account-1 when billing is right: job-1 completed and was charged once. */
function billedRightly(): { record: AccountBillingRecord; ledger: JobLedger; report: AuditReport } {
  const { ledger } = ledgerWith({ status: 'COMPLETED' });
  const balance = (used: number) => ({ granted: 100, used, remaining: 100 - used, unlimited: false, resetsAt: null });
  const report: AuditReport = {
    accountId: 'account-1',
    events: 5,
    entries: [charge('job-1', 3, 0)],
    replayed: { download_count: balance(1), bandwidth_mb: balance(20) },
    readModel: { download_count: balance(1), bandwidth_mb: balance(20) },
    differences: [],
  };
  const record: AccountBillingRecord = {
    accountId: 'account-1',
    readModel: { pendingJobs: [], pendingLookups: [] },
    audit: { exitCode: 0, report },
    me: { status: 200, body: { balances: { download_count: balance(1), bandwidth_mb: balance(20) } } },
    statement: {
      entries: [charge('job-1', 3, 0)],
      balances: { download_count: balance(1), bandwidth_mb: balance(20) },
    },
  };
  return { record, ledger, report };
}

/** The record as the soak reads it when the audit CLI printed `report`: the holder's statement shows the same lines. */
function audited(record: AccountBillingRecord, report: AuditReport, exitCode = 0): AccountBillingRecord {
  return {
    ...record,
    audit: { exitCode, report },
    statement: { entries: report.entries, balances: record.statement?.balances },
  };
}

describe('soak billing invariants', () => {
  it('hold for a completed job charged once, with a ledger that adds up and /me in agreement', () => {
    const { record, ledger } = billedRightly();
    assert.deepEqual(checkAccountBilling(record, ledger), []);
  });

  it('break when a reservation is left open, or the account has no read-model row', () => {
    const { record, ledger } = billedRightly();
    const open = checkAccountBilling({ ...record, readModel: { pendingJobs: ['job-9'] } }, ledger);
    assert.equal(open.length, 1);
    assert.match(open[0], /reservations left open: .*job-9/);
    assert.match(checkAccountBilling({ ...record, readModel: undefined }, ledger)[0], /no read-model row/);
  });

  it('break when the audit CLI fails or prints no report', () => {
    const { record, ledger, report } = billedRightly();
    assert.deepEqual(checkAccountBilling({ ...record, audit: { exitCode: 2, report } }, ledger), [
      'account account-1: the audit CLI failed (exit 2)',
    ]);
    assert.deepEqual(checkAccountBilling({ ...record, audit: { exitCode: 0, report: null } }, ledger), [
      'account account-1: the audit CLI failed (exit 0)',
    ]);
  });

  it('break when the replay differs from the read model', () => {
    const { record, ledger, report } = billedRightly();
    const differing = { ...report, differences: ['download_count.used: replay 1, read model 2'] };
    const broken = checkAccountBilling(audited(record, differing, 1), ledger);
    assert.equal(broken.length, 1);
    assert.match(
      broken[0],
      /the audit replay differs from the read model: download_count\.used: replay 1, read model 2/,
    );
  });

  it('break when /me serves another balance than the replay, or does not answer', () => {
    const { record, ledger } = billedRightly();
    const me = structuredClone(record.me);
    me.body.balances.bandwidth_mb.used = 40;
    assert.deepEqual(checkAccountBilling({ ...record, me }, ledger), [
      'account account-1: bandwidth_mb used is 40 on /me, 20 in the replay',
      "account account-1: the statement's balances are not those GET /me shows",
    ]);
    assert.deepEqual(checkAccountBilling({ ...record, me: { status: 503, body: null } }, ledger), [
      'account account-1: GET /me answered 503',
    ]);
  });

  it('break when the holder’s statement is not the auditors’ ledger, or does not end at /me’s balances', () => {
    const { record, ledger } = billedRightly();
    const missing = { ...record, statement: { entries: [], balances: record.statement?.balances } };
    assert.deepEqual(checkAccountBilling(missing, ledger), [
      "account account-1: the statement differs from the audit CLI's ledger at line 0",
    ]);
    const elsewhere = structuredClone(record);
    const balances = elsewhere.statement?.balances as { bandwidth_mb: { used: number } };
    balances.bandwidth_mb.used = 40;
    assert.deepEqual(checkAccountBilling(elsewhere, ledger), [
      "account account-1: the statement's balances are not those GET /me shows",
    ]);
    assert.deepEqual(checkAccountBilling({ ...record, statement: null }, ledger), [
      'account account-1: GET /me/statement did not answer every page',
    ]);
  });

  it('break when a charge in the ledger does not move the running balance by what it charged', () => {
    const { record, ledger, report } = billedRightly();
    const entry = charge('job-1', 3, 0);
    // The charge of 20 MB shows 30 MB used after it.
    entry.balances.bandwidth_mb = { used: 30, remaining: 970 };
    const broken = checkAccountBilling(audited(record, { ...report, entries: [entry] }), ledger);
    assert.equal(broken.length, 1);
    assert.match(
      broken[0],
      /the ledger does not add up at revision 3: bandwidth_mb used 30 after charging 20, expected 20/,
    );
  });

  it('break when a job is charged twice', () => {
    const { record, ledger, report } = billedRightly();
    const twice = { ...report, entries: [charge('job-1', 3, 0), charge('job-1', 4, 1)] };
    const broken = checkAccountBilling(audited(record, twice), ledger);
    assert.deepEqual(broken, ['account account-1: download job job-1 charged twice']);
  });

  it('break when a job that failed or was cancelled is charged, or one that completed is not', () => {
    const failed = billedRightly();
    failed.ledger.jobs[0].status = 'FAILED';
    failed.ledger.jobs[0].cancelled = true;
    assert.deepEqual(checkAccountBilling(failed.record, failed.ledger), [
      'account account-1: download job job-1 charged but ended FAILED (cancelled)',
    ]);
    const { record, ledger, report } = billedRightly();
    const uncharged = checkAccountBilling(audited(record, { ...report, entries: [] }), ledger);
    assert.deepEqual(uncharged, ['account account-1: download job job-1 succeeded but was not charged']);
  });

  it('break when a job no client got an id for is charged, unless a submission went unanswered', () => {
    const { record, ledger, report } = billedRightly();
    const stranger = { ...report, entries: [charge('job-1', 3, 0), charge('job-unknown', 4, 1)] };
    const withStranger = audited(record, stranger);
    assert.deepEqual(checkAccountBilling(withStranger, ledger), [
      'account account-1: 1 download charges for jobs the clients never got an id for (0 submissions unanswered)',
    ]);
    ledger.unknownOutcomes.push({ kind: 'download', accountId: 'account-1', at: 0 });
    assert.deepEqual(checkAccountBilling(withStranger, ledger), []);
  });

  it('break when channel listings charged are fewer than answered, or more than answered and unanswered', () => {
    const { record, ledger, report } = billedRightly();
    const listing = (lookupId: string, revision: number, usedBefore: number): LedgerEntry => ({
      kind: 'lookup-charge',
      at: AT,
      revision,
      feature: 'channel_list',
      lookupId,
      subject: 'https://www.youtube.com/@channel',
      units: 1,
      balances: { channel_list: { used: usedBefore + 1, remaining: 10 } },
    });
    const withListings = (count: number) =>
      audited(record, {
        ...report,
        entries: [
          charge('job-1', 3, 0),
          ...Array.from({ length: count }, (_, index) => listing(`list-${index}`, 4 + index, index)),
        ],
      });
    ledger.listed('account-1');
    ledger.listed('account-1');
    assert.deepEqual(checkAccountBilling(withListings(2), ledger), []);
    assert.deepEqual(checkAccountBilling(withListings(1), ledger), [
      'account account-1: 1 channel listings charged for 2 answered (0 unanswered)',
    ]);
    assert.deepEqual(checkAccountBilling(withListings(3), ledger), [
      'account account-1: 3 channel listings charged for 2 answered (0 unanswered)',
    ]);
  });
});
