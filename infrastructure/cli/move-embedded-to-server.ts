import type { Knex } from 'knex';
import type { Logger } from '../../application/ports/logger.js';
import { rebuildProjections } from '../processing/rebuild.js';
import type { PostgresPosition } from '../event-store/postgres/checkpoint.js';
import { EVENT_COLUMNS, type EventRow } from '../event-store/postgres/event-rows.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { createKnex } from '../postgres/create-knex.js';
import { ensureDatabase } from '../postgres/ensure-database.js';
import { migrateReadModels } from '../postgres/read-model-schema.js';
import { PROJECTIONS, READ_MODEL_SCHEMA } from '../features/features.js';
import { openEmbeddedStorage } from '../database/open-storage.js';
import { SealingEventStore } from '../event-store/sealing/sealing-event-store.js';
import { AccountDataKeys } from '../security/personal-data/account-data-keys.js';
import type { MasterKeys } from '../security/personal-data/master-keys.js';
import { PostgresDataKeyStore } from '../security/personal-data/postgres-data-key-store.js';

export interface MoveReport {
  events: number;
  streams: number;
}

/** The target already holds events: moving would interleave two histories. */
export class TargetNotEmptyError extends Error {
  constructor(readonly events: number) {
    super(`The target database already holds ${events} events; move into an empty database`);
    this.name = 'TargetNotEmptyError';
  }
}

const BATCH_SIZE = 500;

/**
 * Moves an embedded installation's history to a PostgreSQL server: the
 * events in their global order, each batch in a transaction of its own
 * (later batches get later transaction ids, so the order survives), keeping
 * ids, revisions, data, metadata and recording times; then the streams'
 * revisions; then every read model rebuilt from the copied events. The
 * embedded directory is only read, and locked meanwhile, so the service must
 * be stopped. The work relay starts on the server from the beginning of the
 * history; the idempotent deciders absorb the work already done, and work the
 * embedded queue still held is set off again.
 */
export async function moveToServer(options: {
  directory: string;
  databaseUrl: string;
  /** The service's, which wrap the data keys that move along: the projections read the events through them. */
  masterKeys: MasterKeys;
  logger: Logger;
}): Promise<MoveReport> {
  const { logger } = options;
  const source = await openEmbeddedStorage(options.directory, READ_MODEL_SCHEMA);
  await ensureDatabase(options.databaseUrl);
  const targetStore = new PostgresEventStore({ connectionString: options.databaseUrl });
  const target = createKnex(options.databaseUrl);
  try {
    await targetStore.migrate();
    const existing = Number((await target('es_events').count<Array<{ count: string }>>({ count: '*' }))[0].count);
    if (existing > 0) throw new TargetNotEmptyError(existing);
    const events = await copyEvents(source.database, target, logger);
    const streams = await copyStreams(source.database, target);
    const keyStore = new PostgresDataKeyStore(target);
    await keyStore.migrate();
    await copyDataKeys(source.database, target);
    await migrateReadModels(target, READ_MODEL_SCHEMA);
    await rebuildProjections(PROJECTIONS, {
      db: target,
      store: new SealingEventStore(targetStore, new AccountDataKeys(keyStore, options.masterKeys)),
      connectionString: options.databaseUrl,
      logger,
    });
    return { events, streams };
  } finally {
    await target.destroy();
    await targetStore.close();
    await source.close();
  }
}

async function copyEvents(source: Knex, target: Knex, logger: Logger): Promise<number> {
  let after: PostgresPosition | null = null;
  let copied = 0;
  for (;;) {
    const condition: string = after === null ? '' : 'WHERE (transaction_id, global_position) > (?::xid8, ?::bigint)';
    const { rows }: { rows: EventRow[] } = await source.raw(
      `SELECT ${EVENT_COLUMNS} FROM es_events ${condition} ORDER BY es_events.transaction_id, es_events.global_position LIMIT ?`,
      after === null ? [BATCH_SIZE] : [after.transactionId, after.globalPosition, BATCH_SIZE],
    );
    if (rows.length === 0) return copied;
    // One statement: a transaction of its own, whose rows take positions in the order given.
    await target('es_events').insert(
      rows.map((row) => ({
        stream_name: row.stream_name,
        stream_revision: row.stream_revision,
        event_id: row.event_id,
        event_type: row.event_type,
        data: JSON.stringify(row.data),
        metadata: JSON.stringify(row.metadata),
        created_at: row.created_at,
      })),
    );
    const last: EventRow = rows[rows.length - 1];
    after = { transactionId: last.transaction_id, globalPosition: last.global_position };
    copied += rows.length;
    logger.info({ copied }, 'Events copied');
  }
}

async function copyStreams(source: Knex, target: Knex): Promise<number> {
  const streams = await source('es_streams').select(
    'stream_name',
    'category',
    source.raw('revision::text AS revision'),
  );
  for (let start = 0; start < streams.length; start += BATCH_SIZE) {
    await target('es_streams').insert(streams.slice(start, start + BATCH_SIZE));
  }
  return streams.length;
}

/** The data keys (and the tombstones of erased ones) as they are: without them the moved personal data is unreadable. */
async function copyDataKeys(source: Knex, target: Knex): Promise<void> {
  const present = (await source.raw(`SELECT to_regclass('account_data_keys') IS NOT NULL AS present`)) as {
    rows: Array<{ present: boolean }>;
  };
  if (!present.rows[0]?.present) return;
  const keys = await source('account_data_keys').select('*');
  for (let start = 0; start < keys.length; start += BATCH_SIZE) {
    await target('account_data_keys').insert(keys.slice(start, start + BATCH_SIZE));
  }
}
