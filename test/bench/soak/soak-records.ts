import type { InjectedFault } from '../../../bench/soak/fault-injector.js';
import { JobLedger, type TrackedJob } from '../../../bench/soak/job-ledger.js';

/** A ledger holding one job, ended as given: the seeded state the soak's invariant checkers are fed in these specs. */
export function ledgerWith(job: Partial<TrackedJob> & Pick<TrackedJob, 'status'>): {
  ledger: JobLedger;
  job: TrackedJob;
} {
  const ledger = new JobLedger();
  const tracked = ledger.add({
    kind: 'download',
    jobId: 'job-1',
    accountId: 'account-1',
    key: 'vds_soak-key',
    webhook: null,
    submittedAt: 1_000_000,
    canary: false,
    expected: 'success',
  });
  Object.assign(tracked, { terminalAt: 1_060_000 }, job);
  return { ledger, job: tracked };
}

/** A fault injected at `at` that lasted `forMs`, recovered after `recoveredAfterMs`. */
export function fault(
  kind: InjectedFault['kind'],
  at: number,
  forMs: number,
  recoveredAfterMs: number | null = 5_000,
): InjectedFault {
  return { kind, at, endedAt: at + forMs, detail: kind, recoveredAfterMs, failure: null };
}
