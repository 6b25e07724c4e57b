import type { Checkpoint, EventFilter, ReadAllOptions, RecordedEvent } from '../../../application/ports/event-store.js';
import { type PostgresPosition, comparePositions, decodePosition, encodePosition } from './checkpoint.js';
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
  /**
   * Whether committed events wait above the horizon, behind an older
   * transaction still running. They become readable when it ends, which
   * announces nothing when it appended nothing, so a reader looks again soon;
   * otherwise every event it has not read yet comes with news of its own.
   */
  eventsHeldBack: boolean;
}

const DEFAULT_READ_ALL_COUNT = 1000;

/** The events of one `readAll` call: a page after `options.after`, of at most 1000 events unless told. */
export async function readAllEvents(pool: SqlClient, options: ReadAllOptions): Promise<RecordedEvent[]> {
  const page = await readGlobalPage(
    pool,
    options.after ?? null,
    options.maxCount ?? DEFAULT_READ_ALL_COUNT,
    options.filter,
  );
  return page.events;
}

type PageRow = {
  held_back: boolean;
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
  // Nothing read, nothing known: a reader looks again soon.
  if (maxCount <= 0) return { events: [], scannedTo: after, eventsHeldBack: true };
  const parameters = new PageParameters(maxCount);
  const result = await pool.query<PageRow>(pageStatement(selectionOf(start, filter, parameters)), parameters.values);
  const events = result.rows.flatMap((row) => (row.event_id === null ? [] : [toRecordedEvent(row)]));
  const eventsHeldBack = result.rows[0].held_back;
  if (events.length === maxCount) return { events, scannedTo: events[events.length - 1].position, eventsHeldBack };
  return { events, scannedTo: scannedToOf(result.rows[0], start, after), eventsHeldBack };
}

/** The statement's parameters, `$1` being the page size. */
class PageParameters {
  readonly values: unknown[];

  constructor(maxCount: number) {
    this.values = [maxCount];
  }

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const ORDER = 'epoch, transaction_id, global_position';

/** The events after `start` that match `filter`, below the horizon, in global order: at most `$1` of them. */
function selectionOf(
  start: Required<PostgresPosition> | null,
  filter: EventFilter | undefined,
  parameters: PageParameters,
): string {
  // Events of earlier epochs were all committed before the epoch moved on; only the current one waits for the horizon.
  const conditions = ['(epoch, transaction_id) < (gate.current_epoch, gate.horizon)'];
  if (start !== null) {
    conditions.push(
      `(epoch, transaction_id, global_position) > (${parameters.add(start.epoch)}::integer, ${parameters.add(start.transactionId)}::xid8, ${parameters.add(start.globalPosition)}::bigint)`,
    );
  }
  const branches = branchesOf(filter, conditions, parameters);
  const ordered = (branch: string) =>
    `SELECT * FROM es_events WHERE ${branch} AND ${conditions.join(' AND ')} ORDER BY ${ORDER} LIMIT $1`;
  if (branches.length === 1) return ordered(branches[0]);
  return `SELECT * FROM (${branches.map((branch) => `(${ordered(branch)})`).join(' UNION ALL ')}) AS merged ORDER BY ${ORDER} LIMIT $1`;
}

/**
 * One ordered walk of an index per category (or per event type), merged: never a scan of other events. Conditions
 * every branch shares are added to `conditions`.
 */
function branchesOf(filter: EventFilter | undefined, conditions: string[], parameters: PageParameters): string[] {
  const categories = wholeCategories(filter?.streamPrefixes);
  let branches: string[];
  if (categories !== null) {
    if (filter?.eventTypes !== undefined)
      conditions.push(`event_type = ANY(${parameters.add(filter.eventTypes)}::text[])`);
    branches = categories.map((category) => `split_part(stream_name, '-', 1) = ${parameters.add(category)}`);
  } else {
    if (filter?.streamPrefixes !== undefined) {
      const patterns = filter.streamPrefixes.map(
        (prefix) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`,
      );
      conditions.push(`stream_name LIKE ANY(${parameters.add(patterns)}::text[])`);
    }
    branches =
      filter?.eventTypes !== undefined
        ? filter.eventTypes.map((type) => `event_type = ${parameters.add(type)}`)
        : ['true'];
  }
  // No event type wanted: the page is empty, but the scanned position still moves the reader on.
  return branches.length === 0 ? ['false'] : branches;
}

/**
 * The page's events beside the last event below the horizon and whether any committed event lies above it, from one
 * snapshot: one row per event, or one row of nulls.
 */
function pageStatement(selection: string): string {
  return `SELECT held.held_back, last.last_epoch, last.last_transaction_id::text, last.last_global_position::text, ${EVENT_COLUMNS}
     FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon, ${CURRENT_EPOCH} AS current_epoch) AS gate
     LEFT JOIN LATERAL (
       SELECT epoch AS last_epoch, transaction_id AS last_transaction_id, global_position AS last_global_position
       FROM es_events WHERE (epoch, transaction_id) < (gate.current_epoch, gate.horizon)
       ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1
     ) AS last ON true
     CROSS JOIN LATERAL (
       SELECT EXISTS (SELECT 1 FROM es_events WHERE (epoch, transaction_id) >= (gate.current_epoch, gate.horizon)) AS held_back
     ) AS held
     LEFT JOIN LATERAL (${selection}) AS e ON true
     ORDER BY e.epoch, e.transaction_id, e.global_position`;
}

/**
 * Where a page that is not full leaves its reader: the last event below the horizon (every event appended later gets
 * a transaction id at or above it, so it sorts after), unless the reader already stood further on.
 */
function scannedToOf(
  row: PageRow,
  start: Required<PostgresPosition> | null,
  after: Checkpoint | null,
): Checkpoint | null {
  const { last_epoch: epoch, last_transaction_id: transactionId, last_global_position: globalPosition } = row;
  if (epoch === null || transactionId === null || globalPosition === null) return after;
  const last = { epoch, transactionId, globalPosition };
  return encodePosition(start !== null && comparePositions(start, last) > 0 ? start : last);
}

/** The categories named by prefixes of the form `<category>-`, or null when any prefix is something else. */
function wholeCategories(prefixes: readonly string[] | undefined): string[] | null {
  if (prefixes === undefined || prefixes.length === 0) return null;
  const categories = prefixes.map((prefix) => /^([^-]+)-$/.exec(prefix)?.[1]);
  return categories.every((category) => category !== undefined) ? [...new Set(categories as string[])] : null;
}
