import type { Checkpoint, EventFilter, RecordedEvent } from '../../../application/ports/event-store.js';
import { comparePositions, decodePosition, encodePosition } from './checkpoint.js';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-rows.js';
import type { SqlClient } from './sql-client.js';
import { CURRENT_EPOCH } from './schema.js';

export interface GlobalPage {
  events: RecordedEvent[];
  /**
   * Where the next read may start without missing anything: the last event's
   * position when the page is full, otherwise the last event of any kind
   * below the horizon this read saw. A filtered reader resumes from it
   * instead of scanning again the events that did not match; it moves only
   * when events do, so an idle reader has nothing new to store.
   */
  scannedTo: Checkpoint | null;
}

type PageRow = {
  last_epoch: number | null;
  last_transaction_id: string | null;
  last_global_position: string | null;
} & (EventRow | { [Column in keyof EventRow]: null });

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
  const parameter = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  // Events of earlier epochs were all committed before the epoch moved on; only the current one waits for the horizon.
  const conditions = ['(epoch, transaction_id) < (gate.current_epoch, gate.horizon)'];
  if (start !== null) {
    conditions.push(
      `(epoch, transaction_id, global_position) > (${parameter(start.epoch)}::integer, ${parameter(start.transactionId)}::xid8, ${parameter(start.globalPosition)}::bigint)`,
    );
  }
  // One ordered walk of an index per category (or per event type), merged: never a scan of other events.
  const categories = wholeCategories(filter?.streamPrefixes);
  let branches: string[];
  if (categories !== null) {
    if (filter?.eventTypes !== undefined) conditions.push(`event_type = ANY(${parameter(filter.eventTypes)}::text[])`);
    branches = categories.map((category) => `split_part(stream_name, '-', 1) = ${parameter(category)}`);
  } else {
    if (filter?.streamPrefixes !== undefined) {
      conditions.push(
        `stream_name LIKE ANY(${parameter(filter.streamPrefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`))}::text[])`,
      );
    }
    branches =
      filter?.eventTypes !== undefined ? filter.eventTypes.map((type) => `event_type = ${parameter(type)}`) : ['true'];
  }
  // No event type wanted: the page is empty, but the scanned position still moves the reader on.
  if (branches.length === 0) branches = ['false'];
  const order = 'epoch, transaction_id, global_position';
  const ordered = (branch: string) =>
    `SELECT * FROM es_events WHERE ${branch} AND ${conditions.join(' AND ')} ORDER BY ${order} LIMIT $1`;
  const selection =
    branches.length === 1
      ? ordered(branches[0])
      : `SELECT * FROM (${branches.map((branch) => `(${ordered(branch)})`).join(' UNION ALL ')}) AS merged ORDER BY ${order} LIMIT $1`;
  const result = await pool.query<PageRow>(
    `SELECT last.last_epoch, last.last_transaction_id::text, last.last_global_position::text, ${EVENT_COLUMNS}
     FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon, ${CURRENT_EPOCH} AS current_epoch) AS gate
     LEFT JOIN LATERAL (
       SELECT epoch AS last_epoch, transaction_id AS last_transaction_id, global_position AS last_global_position
       FROM es_events WHERE (epoch, transaction_id) < (gate.current_epoch, gate.horizon)
       ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1
     ) AS last ON true
     LEFT JOIN LATERAL (${selection}) AS e ON true
     ORDER BY e.epoch, e.transaction_id, e.global_position`,
    parameters,
  );
  const events = result.rows.flatMap((row) => (row.event_id === null ? [] : [toRecordedEvent(row)]));
  if (events.length === maxCount) return { events, scannedTo: events[events.length - 1].position };
  // Every event appended later gets a transaction id at or above the horizon, so it sorts after the last one below it.
  const {
    last_epoch: epoch,
    last_transaction_id: transactionId,
    last_global_position: globalPosition,
  } = result.rows[0];
  if (epoch === null || transactionId === null || globalPosition === null) return { events, scannedTo: after };
  const last = { epoch, transactionId, globalPosition };
  const scannedTo = start !== null && comparePositions(start, last) > 0 ? start : last;
  return { events, scannedTo: encodePosition(scannedTo) };
}

/** The categories named by prefixes of the form `<category>-`, or null when any prefix is something else. */
function wholeCategories(prefixes: readonly string[] | undefined): string[] | null {
  if (prefixes === undefined || prefixes.length === 0) return null;
  const categories = prefixes.map((prefix) => /^([^-]+)-$/.exec(prefix)?.[1]);
  return categories.every((category) => category !== undefined) ? [...new Set(categories as string[])] : null;
}
