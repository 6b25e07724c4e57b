/** The subscriptions' read model and their webhooks' schedule, created idempotently. */
export const SUBSCRIPTION_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS subscriptions (
     subscription_id text PRIMARY KEY,
     account_id text NOT NULL,
     status text NOT NULL,
     state json NOT NULL,
     next_check_at timestamptz,
     check_started_at timestamptz,
     created_at timestamptz NOT NULL,
     last_revision integer NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS subscriptions_account ON subscriptions (account_id, created_at) WHERE status <> 'deleted'`,
  `CREATE INDEX IF NOT EXISTS subscriptions_due ON subscriptions (next_check_at) WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS subscriptions_checking ON subscriptions (check_started_at) WHERE check_started_at IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS subscription_webhooks (subscription_id text PRIMARY KEY, due_at timestamptz NOT NULL)`,
];

/** What erasing an account drops here (see FeatureModule.erasureStatements). */
export const SUBSCRIPTION_ERASURE: readonly string[] = [
  `DELETE FROM subscription_webhooks WHERE subscription_id IN (SELECT subscription_id FROM subscriptions WHERE account_id = ?)`,
  `DELETE FROM subscriptions WHERE account_id = ?`,
];
