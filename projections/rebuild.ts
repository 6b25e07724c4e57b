import type { Knex } from 'knex';
import type { Checkpoint, EventStore } from '../application/ports/event-store.js';
import type { Logger } from '../application/ports/logger.js';
import { processorLockKey } from './batch-handler.js';
import { ensureCheckpointTable } from './checkpoint-schema.js';
import { resetCheckpoints } from './checkpoint-store.js';
import { type RetryPolicy, commitBatchWithRetries } from './commit-batch.js';
import type { Projection } from './projection.js';
import { type AcquireLock, type HeldLock, acquireSessionLock } from './session-advisory-lock.js';

export interface RebuildOptions {
  db: Knex;
  store: EventStore;
  /** Opens the dedicated connections that hold the advisory locks. */
  connectionString: string;
  /** Default: session advisory locks on connections of their own to `connectionString`. */
  acquireLock?: AcquireLock;
  logger: Logger;
  batchSize?: number;
  /** How long to wait for running instances to let go of the projections. Default 30 s. */
  lockTimeoutMs?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}

/** Another process keeps running a projection that was to be rebuilt. */
export class ProjectionBusyError extends Error {
  constructor(readonly projectionName: string) {
    super(`Projection ${projectionName} is being run by another instance; stop it before rebuilding`);
    this.name = 'ProjectionBusyError';
  }
}

/**
 * Empties the projections' tables and replays every event through their
 * `apply`, as a live runner would, until nothing stored is left. The
 * projections' locks are held throughout so no runner interleaves; a runner
 * started afterwards carries on from the rebuilt checkpoint. Readers see the
 * tables empty, then filling, while this runs.
 */
export async function rebuildProjections(projections: readonly Projection[], options: RebuildOptions): Promise<void> {
  const { db, logger } = options;
  const names = projections.map((projection) => projection.name);
  if (new Set(names).size !== names.length) throw new Error(`Projection names repeat: ${names.join(', ')}`);
  await ensureCheckpointTable(db);
  const locks: HeldLock[] = [];
  try {
    // A fixed order keeps two rebuilds of overlapping sets from each holding half.
    for (const projection of [...projections].sort((a, b) => a.name.localeCompare(b.name))) {
      const lock = await (options.acquireLock ?? acquireSessionLock)({
        connectionString: options.connectionString,
        key: processorLockKey(projection.name),
        logger,
        timeoutMs: options.lockTimeoutMs ?? 30_000,
        signal: options.signal,
      });
      if (lock === null) {
        options.signal?.throwIfAborted();
        throw new ProjectionBusyError(projection.name);
      }
      locks.push(lock);
    }
    await db.transaction(async (trx) => {
      const tables = [...new Set(projections.flatMap((projection) => projection.tables))];
      if (tables.length > 0) await trx.raw(`TRUNCATE ${tables.map(() => '??').join(', ')}`, tables);
      await resetCheckpoints(trx, names);
    });
    const lost = AbortSignal.any([...locks.map((lock) => lock.lost), ...(options.signal ? [options.signal] : [])]);
    for (const projection of projections) await replay(projection, options, lost);
  } finally {
    await Promise.all(locks.map((lock) => lock.release()));
  }
}

async function replay(projection: Projection, options: RebuildOptions, halt: AbortSignal): Promise<void> {
  const { db, store, logger } = options;
  let checkpoint: Checkpoint | null = null;
  let replayed = 0;
  for (;;) {
    halt.throwIfAborted();
    const events = await store.readAll({ after: checkpoint, filter: projection.filter, maxCount: options.batchSize ?? 500 });
    if (events.length === 0) break;
    const committed = await commitBatchWithRetries(db, projection, checkpoint, events, { logger, retry: options.retry, signal: halt });
    // Only a lost lock or the caller's signal leaves a batch uncommitted.
    if (committed === null) throw halt.reason;
    checkpoint = committed;
    replayed += events.length;
  }
  logger.info({ projection: projection.name, replayed }, 'Projection rebuilt');
}
