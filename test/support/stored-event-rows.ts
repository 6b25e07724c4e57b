import { randomUUID } from 'node:crypto';
import type { Checkpoint } from '../../application/ports/event-store.js';
import { encodePosition } from '../../infrastructure/event-store/postgres/checkpoint.js';
import type { SqlClient } from '../../infrastructure/event-store/postgres/sql-client.js';

/**
 * The largest id of one digit fewer than the server's next transaction id
 * (9999 when the next is 13280): an id the server has handed out already,
 * which sorts after the next one as text but before it as a number.
 */
export async function idOneDigitShorter(client: SqlClient): Promise<string> {
  const { rows } = await client.query<{ next: string }>('SELECT pg_current_xact_id()::text AS next');
  return '9'.repeat(rows[0].next.length - 1);
}

/**
 * An event row as an append in transaction `transactionId` stored it, for
 * a store whose ids crossed a power of ten; `globalPosition` only when the
 * test needs that one. Returns its position.
 */
export async function storeEventRow(
  client: SqlClient,
  row: { transactionId: string; streamName: string; revision: number; globalPosition?: number },
): Promise<Checkpoint> {
  const position = row.globalPosition === undefined ? 'DEFAULT' : `${row.globalPosition}`;
  const { rows } = await client.query<{ epoch: number; transaction_id: string; global_position: string }>(
    `INSERT INTO es_events (global_position, transaction_id, stream_name, stream_revision, event_id, event_type, data)
     OVERRIDING SYSTEM VALUE VALUES (${position}, $1::xid8, $2, $3, $4, 'Stored', '{}')
     RETURNING epoch, transaction_id::text, global_position::text`,
    [row.transactionId, row.streamName, row.revision, randomUUID()],
  );
  return encodePosition({
    epoch: rows[0].epoch,
    transactionId: rows[0].transaction_id,
    globalPosition: rows[0].global_position,
  });
}
