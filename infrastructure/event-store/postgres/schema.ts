import type pg from 'pg';

/** After appends commit, the store notifies this channel (payload: the appended categories, comma-separated) so subscribers wake at once instead of at their next poll. */
export const EVENTS_CHANNEL = 'es_events_appended';

/**
 * Events are ordered globally by (transaction_id, global_position), and
 * readers only read below the oldest transaction still running (the
 * snapshot's xmin): an event whose transaction commits late can then never
 * be skipped, which ordering by global_position alone cannot promise.
 * Every statement is idempotent, so each process runs them at start.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS es_streams (
     stream_name text PRIMARY KEY,
     category text NOT NULL,
     revision bigint NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS es_events (
     global_position bigint GENERATED ALWAYS AS IDENTITY,
     transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
     stream_name text NOT NULL,
     stream_revision bigint NOT NULL,
     event_id uuid NOT NULL,
     event_type text NOT NULL,
     data jsonb NOT NULL,
     metadata jsonb NOT NULL DEFAULT '{}',
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT es_events_pkey PRIMARY KEY (stream_name, stream_revision),
     CONSTRAINT es_events_event_id_key UNIQUE (event_id)
   )`,
  // The order's epoch leads the key: after a restore onto a server whose transaction counter is behind the stored ids, bumping it sorts new events after every stored one.
  `CREATE TABLE IF NOT EXISTS es_order_epoch (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     epoch integer NOT NULL
   )`,
  `INSERT INTO es_order_epoch (epoch) VALUES (0) ON CONFLICT DO NOTHING`,
  `ALTER TABLE es_events ADD COLUMN IF NOT EXISTS epoch integer NOT NULL DEFAULT 0`,
  `CREATE INDEX IF NOT EXISTS es_events_epoch_order ON es_events (epoch, transaction_id, global_position)`,
  `DROP INDEX IF EXISTS es_events_global_order`,
  // What readers filter on, each followed by the global order, so a reader far behind the head with a selective
  // filter (a rebuild, a new projection, rare event types) walks only its own events in order instead of scanning
  // everything. The category is computed as categoryOf() does, so existing rows need no new column or backfill.
  `CREATE INDEX IF NOT EXISTS es_events_category_order ON es_events (split_part(stream_name, '-', 1), epoch, transaction_id, global_position)`,
  `CREATE INDEX IF NOT EXISTS es_events_type_order ON es_events (event_type, epoch, transaction_id, global_position)`,
];

/** The current order epoch, for use inside statements. */
export const CURRENT_EPOCH = '(SELECT epoch FROM es_order_epoch)';

/** The constraint names the append maps to the port's errors. */
export const STREAM_REVISION_CONSTRAINT = 'es_events_pkey';
export const EVENT_ID_CONSTRAINT = 'es_events_event_id_key';

export async function migrateEventStoreSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  // A server lost meanwhile fails the statement under way; unheard, its 'error' event would end the process.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    // Two processes starting together would otherwise race inside CREATE ... IF NOT EXISTS and one would fail.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('es-schema'))`);
    for (const statement of STATEMENTS) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', ignore);
    client.release();
  }
}

/** The same statements for a store that runs them itself (the embedded PGlite database). */
export const EVENT_STORE_SCHEMA: readonly string[] = STATEMENTS;
