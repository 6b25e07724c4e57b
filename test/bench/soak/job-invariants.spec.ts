import assert from 'node:assert/strict';
import { FAULT_AFTERMATH_MS, checkJobs } from '../../../bench/soak/job-invariants.js';
import { fault, ledgerWith } from './soak-records.js';

describe('soak job invariants', () => {
  it('hold for a working video that completed, and a failing one that failed', () => {
    assert.deepEqual(checkJobs(ledgerWith({ status: 'COMPLETED' }).ledger, []), []);
    assert.deepEqual(checkJobs(ledgerWith({ status: 'FAILED', expected: 'failure' }).ledger, []), []);
  });

  it('break when a working video fails with no fault or cancel to excuse it', () => {
    const { ledger } = ledgerWith({ status: 'FAILED', errorCode: 'NETWORK_ERROR' });
    const broken = checkJobs(ledger, []);
    assert.equal(broken.length, 1);
    assert.match(broken[0], /job-1 of a working video ended FAILED \(NETWORK_ERROR\) with no fault or cancel/);
  });

  it('break when the only fault during its life excuses nothing (the projector leader killed)', () => {
    const { ledger, job } = ledgerWith({ status: 'FAILED' });
    assert.equal(checkJobs(ledger, [fault('kill-projector-leader', job.submittedAt + 1_000, 2_000)]).length, 1);
  });

  it('break when the excusing fault ended longer than the aftermath before the job was submitted', () => {
    const { ledger, job } = ledgerWith({ status: 'FAILED' });
    const long = fault('kill-worker', job.submittedAt - FAULT_AFTERMATH_MS - 10_000, 5_000);
    assert.equal(checkJobs(ledger, [long]).length, 1);
    assert.equal(
      checkJobs(ledger, [{ ...long, failure: 'nothing to kill' }]).length,
      1,
      'a fault not injected excuses nothing',
    );
  });

  it('break when a working video fails with a code no fault causes, even under a fault', () => {
    const { ledger, job } = ledgerWith({ status: 'FAILED', errorCode: 'FORMAT_UNAVAILABLE' });
    const broken = checkJobs(ledger, [fault('platform-429', job.submittedAt + 1_000, 5_000)]);
    assert.equal(broken.length, 1);
    assert.match(broken[0], /FORMAT_UNAVAILABLE/);
  });

  it('excuse a failure whose life overlapped an injected fault that can spend attempts, or a cancel sent', () => {
    const { ledger, job } = ledgerWith({ status: 'FAILED', errorCode: 'NETWORK_ERROR' });
    assert.deepEqual(checkJobs(ledger, [fault('platform-429', job.submittedAt + 1_000, 5_000)]), []);
    assert.deepEqual(checkJobs(ledger, [fault('kill-nats-node', job.submittedAt - 20_000, 5_000)]), []);
    job.cancelSent = true;
    assert.deepEqual(checkJobs(ledger, []), []);
  });

  it('break when a failing video completes, a cancelled job completes, or a job never ends', () => {
    assert.equal(checkJobs(ledgerWith({ status: 'COMPLETED', expected: 'failure' }).ledger, []).length, 1);
    assert.match(
      checkJobs(ledgerWith({ status: 'COMPLETED', cancelled: true }).ledger, [])[0],
      /cancelled but ended COMPLETED/,
    );
    assert.match(checkJobs(ledgerWith({ status: 'IN_PROGRESS', terminalAt: null }).ledger, [])[0], /still IN_PROGRESS/);
  });
});
