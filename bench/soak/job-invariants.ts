import type { JobLedger } from './job-ledger.js';

/** Every job terminal after the quiet period; a job whose cancel was answered 200 ended FAILED. */
export function checkJobs(ledger: JobLedger): string[] {
  const broken: string[] = [];
  for (const job of ledger.pending())
    broken.push(`${job.kind} job ${job.jobId} still ${job.status ?? 'unseen'} after the quiet period`);
  for (const job of ledger.jobs)
    if (job.cancelled && job.status !== 'FAILED')
      broken.push(`download job ${job.jobId} was cancelled but ended ${job.status}`);
  return broken;
}
