import type { Knex } from 'knex';
import type { Checkpoint } from '../../application/ports/event-store.js';
import { CHECKPOINT_TABLE } from './checkpoint-schema.js';

/** Another writer moved the checkpoint since it was read: the batch must not commit. */
export class CheckpointConflictError extends Error {
  constructor(
    readonly processorName: string,
    readonly expected: Checkpoint | null,
  ) {
    super(`Checkpoint of ${processorName} is no longer ${expected ?? 'null'}`);
    this.name = 'CheckpointConflictError';
  }
}

/** The stored checkpoint; creates the row (at null) the first time a name is seen. */
export async function loadCheckpoint(db: Knex, name: string): Promise<Checkpoint | null> {
  await db(CHECKPOINT_TABLE).insert({ name, checkpoint: null }).onConflict('name').ignore();
  return readCheckpoint(db, name);
}

/** The stored checkpoint, or null when nothing was handled yet (or the name is unknown). */
export async function readCheckpoint(db: Knex, name: string): Promise<Checkpoint | null> {
  const row = await db(CHECKPOINT_TABLE).where({ name }).first<{ checkpoint: string | null } | undefined>('checkpoint');
  return row?.checkpoint ?? null;
}

/**
 * Moves the checkpoint only if it still is `expected`, so two instances that
 * both believe they are active can never both commit the same batch.
 */
export async function compareAndSetCheckpoint(
  trx: Knex.Transaction,
  name: string,
  expected: Checkpoint | null,
  next: Checkpoint,
): Promise<void> {
  const updated = await trx.raw<{ rowCount: number }>(
    `UPDATE ${CHECKPOINT_TABLE} SET checkpoint = ?, updated_at = now() WHERE name = ? AND checkpoint IS NOT DISTINCT FROM ?`,
    [next, name, expected],
  );
  if (updated.rowCount !== 1) throw new CheckpointConflictError(name, expected);
}
