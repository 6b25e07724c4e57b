import type { FaultClass, InjectedFault } from './fault-injector.js';
import { type JobLedger, SUCCESS, type TrackedJob } from './job-ledger.js';

/**
 * The faults that may fail a job of a working video: each can spend its
 * download attempts (a worker or fork server killed mid-run, the platform
 * refusing, the database or the queue gone) or fail a lookup. Killing the
 * projector leader only delays the read models: it excuses nothing.
 */
const EXCUSING: ReadonlySet<FaultClass> = new Set<FaultClass>([
  'kill-worker',
  'kill-warm-helpers',
  'restart-postgres',
  'restart-nats',
  'kill-nats-node',
  'platform-429',
]);

/** After a fault's end, how long its effects may still fail a job: the 20 s ack wait of a killed worker's message, and a margin. */
export const FAULT_AFTERMATH_MS = 30_000;

/**
 * What a fault can make of a job of a working video: its attempts spent
 * (`NETWORK_ERROR`), or an unrecognised service-side failure (no code). Any
 * other code calls a working video unavailable: no fault excuses that.
 */
const FAULT_ERROR_CODES: ReadonlySet<string | null> = new Set([null, 'NETWORK_ERROR']);

/**
 * Every job terminal after the quiet period; a job whose cancel was answered
 * 200 ended FAILED; a job of a video whose media fails did not succeed; and a
 * job of a working video succeeded, unless a cancel was sent for it, or it
 * failed as a fault fails jobs (`FAULT_ERROR_CODES`) and its life
 * (submission to terminal) overlapped an excusing fault, from the fault's
 * injection to `FAULT_AFTERMATH_MS` after its end.
 */
export function checkJobs(ledger: JobLedger, faults: readonly InjectedFault[]): string[] {
  const broken: string[] = [];
  for (const job of ledger.pending())
    broken.push(`${job.kind} job ${job.jobId} still ${job.status ?? 'unseen'} after the quiet period`);
  for (const job of ledger.jobs.filter((candidate) => ledger.isTerminal(candidate))) {
    const succeeded = job.status === SUCCESS[job.kind];
    if (job.cancelled && job.status !== 'FAILED')
      broken.push(`download job ${job.jobId} was cancelled but ended ${job.status}`);
    else if (job.expected === 'failure' && succeeded)
      broken.push(`${job.kind} job ${job.jobId} of a video whose media fails ended ${job.status}`);
    else if (job.expected === 'success' && !succeeded && !job.cancelSent && !excused(job, faults))
      broken.push(
        `${job.kind} job ${job.jobId} of a working video ended ${job.status} (${job.errorCode ?? 'no errorCode'}) with no fault or cancel to excuse it`,
      );
  }
  return broken;
}

export function excused(job: TrackedJob, faults: readonly InjectedFault[]): boolean {
  return FAULT_ERROR_CODES.has(job.errorCode) && hitBy(job, faults) !== null;
}

/** The first excusing fault the job's life overlapped, if any. */
export function hitBy(job: TrackedJob, faults: readonly InjectedFault[]): InjectedFault | null {
  const end = job.terminalAt ?? Number.POSITIVE_INFINITY;
  return (
    faults.find(
      (fault) =>
        fault.failure === null &&
        EXCUSING.has(fault.kind) &&
        job.submittedAt <= fault.endedAt + FAULT_AFTERMATH_MS &&
        end >= fault.at,
    ) ?? null
  );
}
