/** The accounts' read model (balances, keys), and the cache of folded account states. */
export const ACCOUNT_TABLES: readonly string[] = [
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
  // Keys issued before read-only keys existed are all full keys.
  `ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS read_only boolean NOT NULL DEFAULT false`,
  // Not a read model: when each key was last seen, written by the API processes at most once a minute per key, kept across rebuilds.
  `CREATE TABLE IF NOT EXISTS api_key_usage (
     key_id text PRIMARY KEY,
     last_used_at timestamptz NOT NULL
   )`,
  // Not a read model but a cache of folded account states (infrastructure/snapshots): never rebuilt, safe to empty.
  `CREATE TABLE IF NOT EXISTS stream_snapshots (
     stream_name text PRIMARY KEY,
     revision bigint NOT NULL,
     last_event_id text NOT NULL,
     version integer NOT NULL,
     state jsonb NOT NULL,
     taken_at timestamptz NOT NULL
   )`,
];

/** The account keeps its row (closed, with its balances) without its name and email; its keys' signing secrets go. */
export const ACCOUNT_ERASURE: readonly string[] = [
  `UPDATE accounts SET name = '[erased]', email = '[erased]', state = state || jsonb_build_object('name', '[erased]', 'email', '[erased]') WHERE account_id = ?`,
  `DELETE FROM api_key_usage WHERE key_id IN (SELECT key_id FROM api_keys WHERE account_id = ?)`,
  `UPDATE api_keys SET encrypted_key = '[erased]' WHERE account_id = ?`,
  `DELETE FROM stream_snapshots WHERE state->>'accountId' = ?`,
];
