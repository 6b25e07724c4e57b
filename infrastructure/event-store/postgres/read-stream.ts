import type { ReadStreamOptions, RecordedEvent } from '../../../application/ports/event-store.js';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-rows.js';
import type { SqlClient } from './sql-client.js';

/** One stream's events in revision order (or reverse), from `fromRevision` on. */
export async function readStreamEvents(
  client: SqlClient,
  streamName: string,
  options: ReadStreamOptions = {},
): Promise<RecordedEvent[]> {
  const backwards = options.direction === 'backwards';
  const from = options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
  const query = `SELECT ${EVENT_COLUMNS} FROM es_events
     WHERE stream_name = $1 AND stream_revision ${backwards ? '<=' : '>='} $2
     ORDER BY es_events.stream_revision ${backwards ? 'DESC' : 'ASC'} LIMIT $3`;
  const result = await client.query<EventRow>(query, [streamName, from, options.maxCount ?? null]);
  return result.rows.map(toRecordedEvent);
}
