import type { Knex } from 'knex';

export const CHECKPOINT_TABLE = 'projection_checkpoints';

/**
 * One row per checkpointed processor (projections and relays). `checkpoint`
 * is the opaque position of the last event handled; null means none yet.
 * Idempotent: run at every start.
 */
export async function ensureCheckpointTable(db: Knex): Promise<void> {
  // Two processes starting at once must not race on CREATE ... IF NOT EXISTS.
  await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('projection-checkpoint-schema'))`);
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${CHECKPOINT_TABLE} (
      name text PRIMARY KEY,
      checkpoint text NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
}
