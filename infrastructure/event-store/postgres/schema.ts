/**
 * Events are ordered globally by (transaction_id, global_position): readers
 * only read below the oldest transaction still running (the snapshot's xmin),
 * so an event whose transaction commits late can never be skipped.
 */
export const EVENT_STORE_SCHEMA = [
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
     PRIMARY KEY (stream_name, stream_revision),
     CONSTRAINT es_events_event_id_key UNIQUE (event_id)
   )`,
  `CREATE INDEX IF NOT EXISTS es_events_global_order ON es_events (transaction_id, global_position)`,
];

/** The channel appends notify, so subscribers wake at once instead of at their next poll. */
export const EVENTS_CHANNEL = 'es_events_appended';
