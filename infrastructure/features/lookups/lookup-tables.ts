/** Info and client-download jobs until they expire. */
export const LOOKUP_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS lookup_jobs (
     kind text NOT NULL,
     job_id text NOT NULL,
     account_id text NOT NULL,
     status text NOT NULL,
     url text NOT NULL,
     result jsonb,
     error text,
     error_code text,
     created_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     last_revision integer NOT NULL,
     PRIMARY KEY (kind, job_id)
   )`,
  `CREATE INDEX IF NOT EXISTS lookup_jobs_expires_at ON lookup_jobs (expires_at)`,
];

/** What erasing an account drops here (see FeatureModule.erasureStatements). */
export const LOOKUP_ERASURE: readonly string[] = [`DELETE FROM lookup_jobs WHERE account_id = ?`];
