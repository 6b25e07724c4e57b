import type { Knex } from 'knex';
import type { BatchJobIndex, IndexedBatchJob } from '../../../application/batches/batch-job-index.js';

interface JobRow {
  job_id: string;
  batch_id: string;
  account_id: string;
  video_url: string;
}

const asJob = (row: JobRow): IndexedBatchJob => ({
  jobId: row.job_id,
  batchId: row.batch_id,
  accountId: row.account_id,
  videoUrl: row.video_url,
});

/** The batch process's memory in PostgreSQL (or PGlite), so another worker taking the process over carries on. */
export class PostgresBatchJobIndex implements BatchJobIndex {
  constructor(private readonly db: Knex) {}

  async remember(job: IndexedBatchJob): Promise<void> {
    await this.db('batch_process_jobs')
      .insert({ job_id: job.jobId, batch_id: job.batchId, account_id: job.accountId, video_url: job.videoUrl })
      .onConflict('job_id')
      .ignore();
  }

  async markSubmitted(jobId: string): Promise<void> {
    await this.db('batch_process_jobs').where({ job_id: jobId }).update({ submitted: true });
  }

  async batchOfJob(jobId: string): Promise<IndexedBatchJob | null> {
    const row = await this.db<JobRow>('batch_process_jobs').where({ job_id: jobId }).first();
    return row === undefined ? null : asJob(row);
  }

  async unsubmitted(accountId: string): Promise<IndexedBatchJob[]> {
    const rows: JobRow[] = await this.db('batch_process_jobs')
      .where({ account_id: accountId, submitted: false })
      .orderBy('admitted_at');
    return rows.map(asJob);
  }

  async markOpen(batchId: string, accountId: string): Promise<void> {
    await this.db('batch_process_open')
      .insert({ batch_id: batchId, account_id: accountId })
      .onConflict('batch_id')
      .ignore();
  }

  async markClosed(batchId: string): Promise<void> {
    await this.db('batch_process_open').where({ batch_id: batchId }).delete();
  }

  async openBatches(accountId: string): Promise<string[]> {
    const rows = await this.db('batch_process_open')
      .where({ account_id: accountId })
      .orderBy('opened_at')
      .select('batch_id');
    return rows.map((row: { batch_id: string }) => row.batch_id);
  }
}
