import type { Checkpoint } from '../../../application/ports/event-store.js';
import { encodePosition } from './checkpoint.js';
import type { SqlClient } from './sql-client.js';

/** The position of the last stored event in the store's order, or null for an empty store. */
export async function readHeadPosition(client: SqlClient): Promise<Checkpoint | null> {
  const result = await client.query<{ epoch: number; transaction_id: string; global_position: string }>(
    `SELECT epoch, transaction_id::text, global_position::text FROM es_events ORDER BY epoch DESC, transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const [last] = result.rows;
  return last === undefined ? null : encodePosition({ epoch: last.epoch, transactionId: last.transaction_id, globalPosition: last.global_position });
}
