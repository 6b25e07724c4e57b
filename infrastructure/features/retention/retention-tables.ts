/** Deleted files, and the indexes by which the sweeper finds the files of ended download jobs. */
export const RETENTION_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS deleted_files (job_id text PRIMARY KEY, account_id text NOT NULL, deleted_at timestamptz NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS download_jobs_completed_files ON download_jobs (completed_at) WHERE status = 'COMPLETED'`,
  `CREATE INDEX IF NOT EXISTS download_jobs_failed_attempts ON download_jobs (completed_at) WHERE status = 'FAILED' AND started_at IS NOT NULL`,
];
