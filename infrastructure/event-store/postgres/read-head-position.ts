import type { Checkpoint } from '../../../application/ports/event-store.js';
import { encodePosition } from './checkpoint.js';
import type { SqlClient } from './sql-client.js';

/** The position of the last stored event in the store's order, or null for an empty store. */
export async function readHeadPosition(client: SqlClient): Promise<Checkpoint | null> {
  // The ORDER BY names the table's columns: unqualified, it would sort the ::text output columns, and a transaction id
  // past a power of ten ("10000") would sort before the one below it ("9999"), leaving the head behind the newest events.
  const result = await client.query<{ epoch: number; transaction_id: string; global_position: string }>(
    `SELECT epoch, transaction_id::text, global_position::text FROM es_events
     ORDER BY es_events.epoch DESC, es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`,
  );
  const [last] = result.rows;
  return last === undefined
    ? null
    : encodePosition({ epoch: last.epoch, transactionId: last.transaction_id, globalPosition: last.global_position });
}
