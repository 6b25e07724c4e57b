import type { Knex } from 'knex';
import { rowsByStream, type StoredEventRow } from './stored-event-row.js';

/**
 * Puts a fixture's rows into an empty, migrated event store as they were
 * stored: one transaction, in the fixture's order, so the store's global
 * order is theirs. Revisions, ids, metadata and times are kept.
 */
export async function importStoredRows(database: Knex, rows: readonly StoredEventRow[]): Promise<void> {
  await database.transaction(async (trx) => {
    for (const row of rows) {
      await trx.raw(
        'INSERT INTO es_events (stream_name, stream_revision, event_id, event_type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)',
        [
          row.streamName,
          row.revision,
          row.id,
          row.type,
          JSON.stringify(row.data),
          JSON.stringify(row.metadata),
          row.createdAt,
        ],
      );
    }
    for (const [stream, events] of rowsByStream(rows)) {
      await trx.raw('INSERT INTO es_streams (stream_name, category, revision) VALUES (?, ?, ?)', [
        stream,
        stream.split('-')[0],
        events.at(-1)?.revision ?? 0,
      ]);
    }
  });
}
