import type { Knex } from 'knex';
import type { ExpiredFile, ExpiredFiles } from '../../application/ports/expired-files.js';

/** Completed jobs from the `download_jobs` read model whose file is not in `deleted_files` yet, oldest first. */
export class PostgresExpiredFiles implements ExpiredFiles {
  constructor(private readonly db: Knex) {}

  async completedBefore(moment: Date, limit: number): Promise<ExpiredFile[]> {
    const rows = await this.db('download_jobs as j')
      .leftJoin('deleted_files as d', 'd.job_id', 'j.job_id')
      .where('j.status', 'COMPLETED')
      .whereNotNull('j.file_key')
      .where('j.completed_at', '<', moment)
      .whereNull('d.job_id')
      .orderBy('j.completed_at')
      .limit(limit)
      .select<Array<{ job_id: string; account_id: string; file_key: string }>>('j.job_id', 'j.account_id', 'j.file_key');
    return rows.map((row) => ({ jobId: row.job_id, accountId: row.account_id, fileKey: row.file_key }));
  }
}
