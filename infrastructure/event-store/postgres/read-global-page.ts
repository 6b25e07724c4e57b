import type { Checkpoint, EventFilter, RecordedEvent } from '../../../application/ports/event-store.js';
import { comparePositions, decodePosition, encodePosition } from './checkpoint.js';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-rows.js';
import type { SqlClient } from './sql-client.js';

export interface GlobalPage {
  events: RecordedEvent[];
  /**
   * Where the next read may start without missing anything: the last event's
   * position when the page is full, otherwise the horizon this read saw. A
   * filtered reader resumes from it instead of scanning again the events
   * that did not match.
   */
  scannedTo: Checkpoint | null;
}

type PageRow = { horizon: string } & (EventRow | { [Column in keyof EventRow]: null });

/**
 * Events after `after` in global order, only from transactions older than
 * every transaction still running (the snapshot's xmin), since any of those
 * may yet commit an event ordered before the ones already visible.
 *
 * The horizon comes from the same statement, hence the same snapshot, as the
 * events: every event below it is already visible, and every event appended
 * later gets a newer transaction id, so nothing can appear below it later.
 */
export async function readGlobalPage(
  pool: SqlClient,
  after: Checkpoint | null,
  maxCount: number,
  filter: EventFilter | undefined,
): Promise<GlobalPage> {
  const start = after === null ? null : decodePosition(after);
  if (maxCount <= 0) return { events: [], scannedTo: after };
  const parameters: unknown[] = [maxCount];
  const conditions = ['transaction_id < gate.horizon'];
  if (start !== null) {
    parameters.push(start.transactionId, start.globalPosition);
    conditions.push(`(transaction_id, global_position) > ($${parameters.length - 1}::xid8, $${parameters.length}::bigint)`);
  }
  if (filter?.eventTypes !== undefined) {
    parameters.push(filter.eventTypes);
    conditions.push(`event_type = ANY($${parameters.length}::text[])`);
  }
  if (filter?.streamPrefixes !== undefined) {
    parameters.push(filter.streamPrefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`));
    conditions.push(`stream_name LIKE ANY($${parameters.length}::text[])`);
  }
  const result = await pool.query<PageRow>(
    `SELECT gate.horizon::text AS horizon, ${EVENT_COLUMNS}
     FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) AS gate
     LEFT JOIN LATERAL (
       SELECT * FROM es_events WHERE ${conditions.join(' AND ')}
       ORDER BY transaction_id, global_position LIMIT $1
     ) AS e ON true
     ORDER BY e.transaction_id, e.global_position`,
    parameters,
  );
  const events = result.rows.flatMap((row) => (row.event_id === null ? [] : [toRecordedEvent(row)]));
  if (events.length === maxCount) return { events, scannedTo: events[events.length - 1].position };
  // Position (horizon, 0) precedes every event of the horizon's transaction and follows every event below it.
  const horizon = { transactionId: result.rows[0].horizon, globalPosition: '0' };
  const scannedTo = start !== null && comparePositions(start, horizon) > 0 ? start : horizon;
  return { events, scannedTo: encodePosition(scannedTo) };
}
