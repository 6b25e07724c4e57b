import type { Knex } from 'knex';

/**
 * The channel on which the read models announce that a job's poll view may
 * have changed (payload: the job id, or `*` for every job). API processes
 * keep finished jobs' views in memory and forget them on these.
 */
export const DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL = 'download_job_view_changes';

/** Delivered when the transaction commits, i.e. when the change becomes visible. */
export async function announceDownloadJobViewChange(trx: Knex.Transaction, jobId: string): Promise<void> {
  await trx.raw('SELECT pg_notify(?, ?)', [DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL, jobId]);
}
