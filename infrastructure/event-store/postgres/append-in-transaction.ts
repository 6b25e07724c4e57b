import {
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';
import { type StoredEventPlace, repeatedAppendResult } from '../idempotent-append.js';
import { encodePosition } from './checkpoint.js';
import { CURRENT_EPOCH } from './schema.js';
import type { SqlClient } from './sql-client.js';

/**
 * The statements of an append, in a transaction the caller has begun and not yet written in; the caller commits.
 * The per-stream lock comes first because a transaction id is assigned at the first write: taken after the lock, ids
 * follow each stream's append order, so the global order (transaction id first) keeps every stream in revision order.
 * No NOTIFY here: inside the transaction it would make every commit wait on the server's notification lock, so the
 * store notifies after the commit (AppendNotifier).
 */
export async function appendInTransaction(
  client: SqlClient,
  streamName: string,
  events: readonly EventToAppend[],
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamName]);
  // A statement of its own, so that its snapshot is taken after the lock was granted and sees the previous holder's commit.
  const { actual, stored } = await readRevisionAndStoredIds(client, streamName, events);
  const repeated = repeatedAppendResult(streamName, events, expectedRevision, stored);
  if (repeated !== null) return repeated;
  if (!matchesExpectedRevision(expectedRevision, actual))
    throw new WrongExpectedRevisionError(streamName, expectedRevision, actual);
  const nextExpectedRevision = actual + events.length;
  const written = await client.query<{ epoch: number; transaction_id: string; global_position: string }>(
    `WITH appended AS (
       INSERT INTO es_events (epoch, stream_name, stream_revision, event_id, event_type, data, metadata)
       SELECT ${CURRENT_EPOCH}, $1, $2::bigint + e.ordinality, e.id, e.type, e.data, e.metadata
       FROM unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS e(id, type, data, metadata, ordinality)
       ORDER BY e.ordinality
       RETURNING epoch, transaction_id, global_position
     ), stream AS (
       INSERT INTO es_streams (stream_name, category, revision) VALUES ($1, $7, $8)
       ON CONFLICT (stream_name) DO UPDATE SET revision = EXCLUDED.revision
     )
     SELECT epoch, transaction_id::text, max(global_position)::text AS global_position
     FROM appended GROUP BY epoch, transaction_id`,
    [
      streamName,
      actual,
      events.map((event) => event.id),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => JSON.stringify(event.metadata ?? {})),
      categoryOf(streamName),
      nextExpectedRevision,
    ],
  );
  const [last] = written.rows;
  return {
    nextExpectedRevision,
    position: encodePosition({
      epoch: last.epoch,
      transactionId: last.transaction_id,
      globalPosition: last.global_position,
    }),
  };
}

/** The stream's revision, and where the append's event ids are stored already (if anywhere), in one round trip. */
async function readRevisionAndStoredIds(
  client: SqlClient,
  streamName: string,
  events: readonly EventToAppend[],
): Promise<{ actual: number; stored: StoredEventPlace[] }> {
  const result = await client.query<{
    revision: string | null;
    stored: Array<{
      id: string;
      stream_name: string;
      revision: string;
      epoch: number;
      transaction_id: string;
      global_position: string;
    }> | null;
  }>(
    `SELECT (SELECT revision::text FROM es_streams WHERE stream_name = $1) AS revision,
            (SELECT json_agg(json_build_object('id', event_id, 'stream_name', stream_name, 'revision', stream_revision::text, 'epoch', epoch,
                                               'transaction_id', transaction_id::text, 'global_position', global_position::text))
             FROM es_events WHERE event_id = ANY($2::uuid[])) AS stored`,
    [streamName, events.map((event) => event.id)],
  );
  const [row] = result.rows;
  return {
    actual: row.revision === null ? -1 : Number(row.revision),
    stored: (row.stored ?? []).map((place) => ({
      id: place.id,
      streamName: place.stream_name,
      revision: Number(place.revision),
      position: encodePosition({
        epoch: place.epoch,
        transactionId: place.transaction_id,
        globalPosition: place.global_position,
      }),
    })),
  };
}

/** -1 when the stream does not exist, as WrongExpectedRevisionError reports it. */
export async function readStreamRevision(client: SqlClient, streamName: string): Promise<number> {
  const result = await client.query<{ revision: string }>(
    'SELECT revision::text FROM es_streams WHERE stream_name = $1',
    [streamName],
  );
  return result.rows.length === 0 ? -1 : Number(result.rows[0].revision);
}

function matchesExpectedRevision(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}

/** `download-<jobId>` belongs to `download`; category names contain no dash. The schema's category index computes the same. */
export function categoryOf(streamName: string): string {
  const dash = streamName.indexOf('-');
  return dash === -1 ? streamName : streamName.slice(0, dash);
}
