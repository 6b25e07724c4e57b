import type { Knex } from 'knex';
import { BATCHES_SCHEMA } from '../../projections/batches-projection.js';

/** The tables projections write and queries read. Idempotent: run at every start. */
const STATEMENTS = [
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
  `CREATE TABLE IF NOT EXISTS accounts (
     account_id text PRIMARY KEY,
     name text NOT NULL,
     email text NOT NULL,
     plan_id text,
     state jsonb NOT NULL,
     last_revision integer NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS api_keys (
     key_hash text PRIMARY KEY,
     key_id text NOT NULL UNIQUE,
     account_id text NOT NULL,
     key_prefix text NOT NULL,
     encrypted_key text NOT NULL,
     issued_at timestamptz NOT NULL,
     revoked_at timestamptz
   )`,
  `CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id)`,
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
  `CREATE TABLE IF NOT EXISTS deleted_files (job_id text PRIMARY KEY, account_id text NOT NULL, deleted_at timestamptz NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS download_jobs_completed_files ON download_jobs (completed_at) WHERE status = 'COMPLETED'`,
  `CREATE INDEX IF NOT EXISTS download_jobs_failed_attempts ON download_jobs (completed_at) WHERE status = 'FAILED' AND started_at IS NOT NULL`,
  // Not a read model but a cache of folded account states (infrastructure/snapshots): never rebuilt, safe to empty.
  `CREATE TABLE IF NOT EXISTS stream_snapshots (
     stream_name text PRIMARY KEY,
     revision bigint NOT NULL,
     last_event_id text NOT NULL,
     version integer NOT NULL,
     state jsonb NOT NULL,
     taken_at timestamptz NOT NULL
   )`,
  ...BATCHES_SCHEMA,
];

export async function migrateReadModels(db: Knex): Promise<void> {
  // Two processes starting at once must not race on CREATE ... IF NOT EXISTS.
  await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
    for (const statement of STATEMENTS) await trx.raw(statement);
  });
}
