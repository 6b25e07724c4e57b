import type { Knex } from 'knex';

/** Work the queue gave up on, one row each: JetStream's advisories and the in-process queue's exhausted rows. */
export const DEAD_LETTER_TABLE = 'dead_letters';

/** Idempotent: run by whatever records dead letters, before it records any. */
export async function ensureDeadLetterTable(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('dead-letter-schema'))`);
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${DEAD_LETTER_TABLE} (
      id bigserial PRIMARY KEY,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      reason text NOT NULL,
      stream text NOT NULL,
      consumer text NOT NULL,
      stream_seq bigint NOT NULL,
      deliveries integer,
      subject text,
      body jsonb,
      UNIQUE (stream, stream_seq, reason)
    )`);
    // When an operator put the message back on its subject (the admin API's replay).
    await trx.raw(`ALTER TABLE ${DEAD_LETTER_TABLE} ADD COLUMN IF NOT EXISTS replayed_at timestamptz`);
  });
}
