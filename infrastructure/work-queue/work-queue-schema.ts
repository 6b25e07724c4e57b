import type { Knex } from 'knex';

export const WORK_QUEUE_TABLE = 'work_queue';

/**
 * The in-process queue's messages. A row is written by the relay in the same
 * transaction as the relay's checkpoint, so work is never lost or doubled by
 * a crash, and deleted when acknowledged. `deliveries` survives restarts, so
 * attempts stay bounded even when the process dies mid-job. Idempotent: run
 * at every start.
 */
export async function ensureWorkQueueTable(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('work-queue-schema'))`);
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${WORK_QUEUE_TABLE} (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      message_id text NOT NULL UNIQUE,
      subject text NOT NULL,
      payload jsonb NOT NULL,
      deliveries integer NOT NULL DEFAULT 0,
      available_at timestamptz NOT NULL DEFAULT now(),
      lease_token text,
      leased_until timestamptz
    )`);
    await trx.raw(`CREATE INDEX IF NOT EXISTS work_queue_due ON ${WORK_QUEUE_TABLE} (subject, available_at)`);
  });
}
