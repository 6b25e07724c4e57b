import type { Knex } from 'knex';
import type { LookupJobKind, LookupJobReadModel, LookupJobView } from '../../application/lookups/lookup-job-view.js';
import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { LookupJobStatus } from '../../domain/lookup-job/status.js';

interface LookupJobRow {
  kind: LookupJobKind;
  job_id: string;
  account_id: string;
  status: LookupJobStatus;
  url: string;
  result: unknown;
  error: string | null;
  error_code: DownloadErrorCode | null;
  created_at: Date;
  expires_at: Date;
}

export class PostgresLookupJobReadModel implements LookupJobReadModel {
  constructor(private readonly db: Knex) {}

  async get(kind: LookupJobKind, jobId: string): Promise<LookupJobView | null> {
    const row = await this.db<LookupJobRow>('lookup_jobs').where({ kind, job_id: jobId }).first();
    if (row === undefined) return null;
    return {
      jobId: row.job_id,
      accountId: row.account_id,
      kind: row.kind,
      status: row.status,
      url: row.url,
      result: row.result ?? null,
      error: row.error,
      errorCode: row.error_code,
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
    };
  }
}
