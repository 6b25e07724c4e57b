import type { Knex } from 'knex';
import type { Settlement } from './delivery.js';
import { WORK_QUEUE_TABLE } from './work-queue-schema.js';

/** A row of the work_queue table, leased to one delivery. */
export interface ClaimedRow {
  id: string;
  payload: unknown;
  deliveries: number;
}

/** Which rows a consumer takes, and how long a lease lasts: its ack wait. */
export interface RowScope {
  subject: string;
  maxDeliver: number;
  ackWaitMs: number;
}

/** Leases, under `token`, the oldest due row of the subject that still has deliveries left. */
export async function claimDueRow(db: Knex, scope: RowScope, token: string): Promise<ClaimedRow | null> {
  const result = await db.raw<{ rows: Array<{ id: string; payload: unknown; deliveries: number }> }>(
    `UPDATE ${WORK_QUEUE_TABLE}
     SET deliveries = deliveries + 1, lease_token = ?, leased_until = clock_timestamp() + ? * interval '1 millisecond'
     WHERE id = (
       SELECT id FROM ${WORK_QUEUE_TABLE}
       WHERE subject = ? AND deliveries < ? AND available_at <= clock_timestamp() AND (leased_until IS NULL OR leased_until <= clock_timestamp())
       ORDER BY available_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING id::text, payload, deliveries`,
    [token, scope.ackWaitMs, scope.subject, scope.maxDeliver],
  );
  const [row] = result.rows;
  return row === undefined ? null : { id: row.id, payload: row.payload, deliveries: Number(row.deliveries) };
}

/** Milliseconds until the next row of the subject falls due (its retry delay or its lease ends); null when none. */
export async function msUntilNextRowDue(db: Knex, scope: RowScope): Promise<number | null> {
  const result = await db.raw<{ rows: Array<{ due_in_ms: number | string | null }> }>(
    `SELECT EXTRACT(EPOCH FROM min(greatest(available_at, coalesce(leased_until, available_at))) - clock_timestamp()) * 1000 AS due_in_ms
     FROM ${WORK_QUEUE_TABLE} WHERE subject = ? AND deliveries < ?`,
    [scope.subject, scope.maxDeliver],
  );
  const dueInMs = result.rows[0]?.due_in_ms;
  return dueInMs === null || dueInMs === undefined ? null : Number(dueInMs);
}

/** Extends the lease by an ack wait, while `token` still holds it. */
export async function extendLease(db: Knex, scope: RowScope, row: ClaimedRow, token: string): Promise<void> {
  await db.raw(
    `UPDATE ${WORK_QUEUE_TABLE} SET leased_until = clock_timestamp() + ? * interval '1 millisecond' WHERE id = ? AND lease_token = ?`,
    [scope.ackWaitMs, row.id, token],
  );
}

/**
 * Deletes the row (done, or never to be delivered again) or puts it back, due at once or after the retry delay; only
 * while `token` still holds its lease, so a delivery that outlived its lease cannot settle the message's redelivery.
 * True when the row was put back.
 */
export async function settleRow(db: Knex, row: ClaimedRow, token: string, settlement: Settlement): Promise<boolean> {
  const where = { id: row.id, lease_token: token };
  if (settlement === 'ack' || settlement === 'terminate') {
    await db(WORK_QUEUE_TABLE).where(where).delete();
    return false;
  }
  const delayMs = settlement === 'handback' ? 0 : Math.max(0, Math.round(settlement.retryAfterMs));
  await db(WORK_QUEUE_TABLE)
    .where(where)
    .update({
      lease_token: null,
      leased_until: null,
      available_at: db.raw(`clock_timestamp() + ? * interval '1 millisecond'`, [delayMs]),
    });
  return true;
}
