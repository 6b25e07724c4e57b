/** The tables of the batches' read model, created idempotently. */
export const BATCH_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS batches (
     batch_id text PRIMARY KEY,
     account_id text NOT NULL,
     state jsonb NOT NULL,
     listing_error text,
     last_revision integer NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS batch_job_titles (
     job_id text PRIMARY KEY,
     batch_id text NOT NULL,
     title text
   )`,
  // The batch process's own memory (BatchJobIndex), not a read model: written as it reads events, never rebuilt.
  `CREATE TABLE IF NOT EXISTS batch_process_jobs (
     job_id text PRIMARY KEY,
     batch_id text NOT NULL,
     account_id text NOT NULL,
     video_url text NOT NULL,
     submitted boolean NOT NULL DEFAULT false,
     admitted_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX IF NOT EXISTS batch_process_jobs_unsubmitted ON batch_process_jobs (account_id) WHERE NOT submitted`,
  `CREATE TABLE IF NOT EXISTS batch_process_open (
     batch_id text PRIMARY KEY,
     account_id text NOT NULL,
     opened_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX IF NOT EXISTS batch_process_open_account ON batch_process_open (account_id)`,
  `CREATE TABLE IF NOT EXISTS batch_process_webhooks (batch_id text PRIMARY KEY, due_at timestamptz NOT NULL)`,
];

/** What erasing an account drops here (see FeatureModule.erasureStatements). */
export const BATCH_ERASURE: readonly string[] = [
  `DELETE FROM batch_job_titles WHERE batch_id IN (SELECT batch_id FROM batches WHERE account_id = ?)`,
  `DELETE FROM batch_process_webhooks WHERE batch_id IN (SELECT batch_id FROM batches WHERE account_id = ?)`,
  `DELETE FROM batch_process_jobs WHERE account_id = ?`,
  `DELETE FROM batch_process_open WHERE account_id = ?`,
  `DELETE FROM batches WHERE account_id = ?`,
];
