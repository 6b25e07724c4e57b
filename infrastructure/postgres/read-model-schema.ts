import type { Knex } from 'knex';

/**
 * Creates the tables projections write and queries read, from the statements the features declare (see FEATURES).
 * Idempotent: run at every start.
 */
export async function migrateReadModels(db: Knex, statements: readonly string[]): Promise<void> {
  // Two processes starting at once must not race on CREATE ... IF NOT EXISTS.
  await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
    for (const statement of statements) await trx.raw(statement);
  });
}
