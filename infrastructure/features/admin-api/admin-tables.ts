/** The admin API's tables: operator tokens (a read model) and the answers kept for Idempotency-Keys (not rebuilt). */
export const ADMIN_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS operator_tokens (
     token_id text PRIMARY KEY,
     token_hash text NOT NULL UNIQUE,
     name text NOT NULL,
     scope text NOT NULL,
     prefix text NOT NULL,
     issued_at timestamptz NOT NULL,
     revoked_at timestamptz
   )`,
  `CREATE TABLE IF NOT EXISTS admin_requests (
     token_id text NOT NULL,
     idempotency_key text NOT NULL,
     request_hash text NOT NULL,
     status integer NOT NULL,
     body jsonb,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (token_id, idempotency_key)
   )`,
  `CREATE TABLE IF NOT EXISTS failing_webhook_deliveries (
     stream_name text PRIMARY KEY,
     job_id text NOT NULL,
     account_id text NOT NULL,
     url text,
     event text,
     attempts integer NOT NULL,
     state text NOT NULL,
     status_code integer,
     error_class text,
     detail text,
     failed_at timestamptz,
     next_attempt_at timestamptz
   )`,
  // Not a read model: each running process's own row, rewritten every few seconds.
  `CREATE TABLE IF NOT EXISTS process_heartbeats (
     process_id text PRIMARY KEY,
     role text NOT NULL,
     host text NOT NULL,
     pid integer NOT NULL,
     started_at timestamptz NOT NULL,
     last_beat_at timestamptz NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS failing_webhook_deliveries_failed ON failing_webhook_deliveries (failed_at DESC)`,
];

/** Recorded answers to admin writes about the account (an opened account's answer holds its email) go with it. */
export const ADMIN_ERASURE: readonly string[] = [
  `DELETE FROM failing_webhook_deliveries WHERE account_id = ?`,
  `DELETE FROM admin_requests WHERE position(? in body::text) > 0`,
];
