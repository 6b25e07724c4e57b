import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Checkpoint, EventStore } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { CHECKPOINT_TABLE, ensureCheckpointTable } from './checkpoint-schema.js';
import { type RetryPolicy, commitBatchWithRetries } from './commit-batch.js';
import { announceDownloadJobViewChange } from '../../projections/download-job-view-changes.js';
import type { Projection } from '../../projections/projection.js';
import { type AcquireLock, acquireSessionLock } from '../postgres/session-advisory-lock.js';

export interface RebuildOptions {
  db: Knex;
  store: EventStore;
  /** Opens the connection that holds the rebuild's lock. */
  connectionString: string;
  /** Default: session advisory locks on connections of their own to `connectionString`. */
  acquireLock?: AcquireLock;
  logger: Logger;
  batchSize?: number;
  /** How long to wait for another rebuild to finish. Default 30 s. */
  lockTimeoutMs?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}

/** Another rebuild is under way. */
export class ProjectionBusyError extends Error {
  constructor(readonly projectionName: string) {
    super(`Projection ${projectionName} is being rebuilt by another process; wait for it to finish`);
    this.name = 'ProjectionBusyError';
  }
}

const REBUILD_LOCK = 'projection-rebuild';

/**
 * Replays every event into new, empty copies of the projections' tables, in
 * a schema of their own with checkpoints of their own, while the live tables
 * keep serving and the live runners keep running. Then, in one transaction,
 * the new tables replace the live ones and the live checkpoints move to
 * where the replay got to: readers never see an empty or half-built read
 * model, and a live runner's next batch fails its checkpoint compare-and-set
 * and resumes from the replay's checkpoint.
 */
export async function rebuildProjections(projections: readonly Projection[], options: RebuildOptions): Promise<void> {
  const { db, logger } = options;
  const names = projections.map((projection) => projection.name);
  if (new Set(names).size !== names.length) throw new Error(`Projection names repeat: ${names.join(', ')}`);
  const tables = [...new Set(projections.flatMap((projection) => projection.tables))];
  await ensureCheckpointTable(db);
  const lock = await (options.acquireLock ?? acquireSessionLock)({
    connectionString: options.connectionString,
    key: REBUILD_LOCK,
    logger,
    timeoutMs: options.lockTimeoutMs ?? 30_000,
    signal: options.signal,
  });
  if (lock === null) {
    options.signal?.throwIfAborted();
    throw new ProjectionBusyError(names.join(', '));
  }
  const schema = `rebuild_${randomBytes(6).toString('hex')}`;
  try {
    await db.raw('CREATE SCHEMA ??', [schema]);
    for (const table of [...tables, CHECKPOINT_TABLE])
      await db.raw('CREATE TABLE ?? (LIKE ?? INCLUDING ALL)', [`${schema}.${table}`, `public.${table}`]);
    const halt = AbortSignal.any([lock.lost, ...(options.signal ? [options.signal] : [])]);
    for (const projection of projections) await replay(projection, schema, options, halt);
    await swapIn(db, schema, tables, names);
    logger.info({ projections: names }, 'Rebuilt tables swapped in');
  } finally {
    await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await lock.release();
  }
}

/**
 * Each batch's transaction first points its unqualified table names at the schema being built, so the projection's
 * own code fills the new tables and checkpoints. A transaction-local setting, rather than connections of their own,
 * works alike on a server and on PGlite's single connection.
 */
async function replay(
  projection: Projection,
  schema: string,
  options: RebuildOptions,
  halt: AbortSignal,
): Promise<void> {
  const { db, store, logger } = options;
  const building: Projection = {
    ...projection,
    apply: async (trx, events) => {
      await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
      await projection.apply(trx, events);
    },
  };
  await db(`${schema}.${CHECKPOINT_TABLE}`).insert({ name: projection.name, checkpoint: null });
  let checkpoint: Checkpoint | null = null;
  let replayed = 0;
  for (;;) {
    halt.throwIfAborted();
    const events = await store.readAll({
      after: checkpoint,
      filter: projection.filter,
      maxCount: options.batchSize ?? 500,
    });
    if (events.length === 0) break;
    const committed = await commitBatchWithRetries(db, building, checkpoint, events, {
      logger,
      retry: options.retry,
      signal: halt,
    });
    // Only a lost lock or the caller's signal leaves a batch uncommitted.
    if (committed === null) throw halt.reason;
    checkpoint = committed;
    replayed += events.length;
  }
  logger.info({ projection: projection.name, replayed }, 'Projection replayed');
}

/** One transaction: the built tables take the live ones' places (and their index names), and the live checkpoints take the built ones' values. */
async function swapIn(db: Knex, schema: string, tables: readonly string[], names: readonly string[]): Promise<void> {
  await db.transaction(async (trx) => {
    if (tables.length > 0)
      await trx.raw(
        `LOCK TABLE ${tables.map(() => '??').join(', ')} IN ACCESS EXCLUSIVE MODE`,
        tables.map((table) => `public.${table}`),
      );
    for (const table of tables) {
      const renames = await indexRenames(trx, schema, table);
      await trx.raw('DROP TABLE ??', [`public.${table}`]);
      await trx.raw('ALTER TABLE ?? SET SCHEMA public', [`${schema}.${table}`]);
      for (const [built, live] of renames) await trx.raw('ALTER INDEX ?? RENAME TO ??', [`public.${built}`, live]);
    }
    const built = await trx(`${schema}.${CHECKPOINT_TABLE}`)
      .whereIn('name', names)
      .select<Array<{ name: string; checkpoint: string | null }>>('name', 'checkpoint');
    for (const { name, checkpoint } of built) {
      await trx(CHECKPOINT_TABLE).insert({ name, checkpoint, updated_at: trx.fn.now() }).onConflict('name').merge();
    }
    // Rows were replaced wholesale: API processes forget every job view they kept.
    await announceDownloadJobViewChange(trx, '*');
  });
}

/** Built index name -> live index name, matched by definition, so later migrations find the indexes they expect. */
async function indexRenames(trx: Knex.Transaction, schema: string, table: string): Promise<Array<[string, string]>> {
  const definitions = async (schemaName: string) => {
    const { rows } = await trx.raw<{ rows: Array<{ indexname: string; indexdef: string }> }>(
      'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ? AND tablename = ?',
      [schemaName, table],
    );
    // "CREATE UNIQUE INDEX name ON schema.table USING btree (col)" -> "UNIQUE|USING btree (col)"
    return rows.map((row) => ({
      name: row.indexname,
      shape: row.indexdef.replace(
        /^CREATE (UNIQUE )?INDEX \S+ ON \S+ /,
        (_, unique: string | undefined) => `${unique ?? ''}|`,
      ),
    }));
  };
  const live = await definitions('public');
  const renames: Array<[string, string]> = [];
  for (const built of await definitions(schema)) {
    const match = live.find((candidate) => candidate.shape === built.shape);
    if (match !== undefined && match.name !== built.name) renames.push([built.name, match.name]);
  }
  return renames;
}
