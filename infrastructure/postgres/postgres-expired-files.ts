import type { Knex } from 'knex';
import type { ExpiredFile, ExpiredFiles } from '../../application/ports/expired-files.js';

/**
 * From the `download_jobs` read model, oldest first: completed jobs, and
 * failed jobs that had started (`started_at`), whose files are not in
 * `deleted_files` yet. `completed_at` is when either ended.
 */
export class PostgresExpiredFiles implements ExpiredFiles {
  constructor(private readonly db: Knex) {}

  async endedBefore(moment: Date, limit: number, skip: readonly string[] = []): Promise<ExpiredFile[]> {
    const query = this.db('download_jobs as j')
      .leftJoin('deleted_files as d', 'd.job_id', 'j.job_id')
      .where((ended) =>
        ended
          .where('j.status', 'COMPLETED')
          .orWhere((failed) => failed.where('j.status', 'FAILED').whereNotNull('j.started_at')),
      )
      .where('j.completed_at', '<', moment)
      .whereNull('d.job_id');
    if (skip.length > 0) query.whereNotIn('j.job_id', skip);
    const rows = await query
      .orderBy('j.completed_at')
      .limit(limit)
      .select<Array<{ job_id: string; account_id: string }>>('j.job_id', 'j.account_id');
    return rows.map((row) => ({ jobId: row.job_id, accountId: row.account_id }));
  }
}
