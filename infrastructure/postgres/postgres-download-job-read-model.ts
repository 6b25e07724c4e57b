import type {
  DownloadJobListQuery,
  DownloadJobReadModel,
  DownloadJobView,
} from '../../application/ports/read-models.js';
import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { DownloadJobStatus } from '../../domain/download-job/state.js';
import type { MediaFormat } from '../../domain/media-format.js';
import type { PreparedReads } from './prepared-reads.js';
import { isoTimestamp } from './timestamps-as-iso-text.js';

interface DownloadJobRow {
  job_id: string;
  account_id: string;
  status: DownloadJobStatus;
  url: string;
  format: MediaFormat;
  language: string | null;
  title: string;
  duration: number;
  webhook_url: string | null;
  actual_format: MediaFormat | null;
  file_key: string | null;
  file_size: string | number | null;
  file_extension: string | null;
  error_code: DownloadErrorCode | null;
  created_at: string | Date;
  started_at: string | Date | null;
  completed_at: string | Date | null;
}

export class PostgresDownloadJobReadModel implements DownloadJobReadModel {
  constructor(private readonly reads: PreparedReads) {}

  async get(jobId: string): Promise<DownloadJobView | null> {
    const [row] = await this.reads.query<DownloadJobRow>(
      'download-job-by-id',
      'SELECT * FROM download_jobs WHERE job_id = $1',
      [jobId],
    );
    return row === undefined ? null : toView(row);
  }

  /**
   * Keyset pagination on (created_at, job_id), so a page never repeats or
   * skips a job however many are inserted meanwhile. `$2` is null for every
   * status; `$3`/`$4` null for the first page.
   */
  async list(query: DownloadJobListQuery): Promise<DownloadJobView[]> {
    const rows = await this.reads.query<DownloadJobRow>(
      'download-jobs-of-account',
      `SELECT * FROM download_jobs
        WHERE account_id = $1
          AND ($2::text IS NULL OR status = $2::text)
          AND ($3::timestamptz IS NULL OR (created_at, job_id) < ($3::timestamptz, $4::text))
        ORDER BY created_at DESC, job_id DESC
        LIMIT $5`,
      [query.accountId, query.status ?? null, query.after?.createdAt ?? null, query.after?.jobId ?? null, query.limit],
    );
    return rows.map(toView);
  }
}

function toView(row: DownloadJobRow): DownloadJobView {
  return {
    jobId: row.job_id,
    accountId: row.account_id,
    status: row.status,
    url: row.url,
    format: row.format,
    language: row.language,
    title: row.title,
    duration: row.duration,
    webhookUrl: row.webhook_url,
    actualFormat: row.actual_format,
    fileKey: row.file_key,
    // bigint columns arrive as strings from pg.
    fileSize: row.file_size === null ? null : Number(row.file_size),
    fileExtension: row.file_extension,
    errorCode: row.error_code,
    createdAt: isoTimestamp(row.created_at),
    startedAt: row.started_at === null ? null : isoTimestamp(row.started_at),
    completedAt: row.completed_at === null ? null : isoTimestamp(row.completed_at),
  };
}
