/** The downloads' read model: one row per job, which GET /download/{jobId} and GET /downloads answer from. */
export const DOWNLOAD_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS download_jobs (
     job_id text PRIMARY KEY,
     account_id text NOT NULL,
     status text NOT NULL,
     url text NOT NULL,
     format text NOT NULL,
     language text,
     title text NOT NULL,
     duration integer NOT NULL,
     webhook_url text,
     actual_format text,
     file_key text,
     file_size bigint,
     file_extension text,
     error_code text,
     failure_reason text,
     created_at timestamptz NOT NULL,
     started_at timestamptz,
     completed_at timestamptz,
     last_revision integer NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS download_jobs_account_status ON download_jobs (account_id, status)`,
  // GET /downloads: an account's jobs newest first, paged by (created_at, job_id).
  `CREATE INDEX IF NOT EXISTS download_jobs_account_created ON download_jobs (account_id, created_at DESC, job_id DESC)`,
];

/** What erasing an account drops here (see FeatureModule.erasureStatements). */
export const DOWNLOAD_ERASURE: readonly string[] = [`DELETE FROM download_jobs WHERE account_id = ?`];
