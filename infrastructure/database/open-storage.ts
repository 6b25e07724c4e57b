import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { EventStore } from '../../application/ports/event-store.js';
import { inProcessLocks } from '../embedded/in-process-locks.js';
import type { AcquireLock } from '../postgres/session-advisory-lock.js';
import { sharedSessionLocks } from '../postgres/shared-session-locks.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { lockDataDirectory } from '../embedded/data-directory-lock.js';
import { openEmbeddedDatabase } from '../embedded/embedded-database.js';
import { createEventStore } from '../event-store/create-event-store.js';
import { PgliteChannelListener } from '../embedded/pglite-channel-listener.js';
import { PgliteEventStore } from '../event-store/pglite/pglite-event-store.js';
import { ChannelListener, type ChannelListenerHandlers } from '../postgres/channel-listener.js';
import { PglitePreparedReads } from '../embedded/pglite-prepared-reads.js';
import { createKnex } from '../postgres/create-knex.js';
import { PoolPreparedReads } from '../postgres/pool-prepared-reads.js';
import type { PreparedReads } from '../postgres/prepared-reads.js';
import { ensureDatabase } from '../postgres/ensure-database.js';
import { migrateReadModels } from '../postgres/read-model-schema.js';

/** Where events, read models, checkpoints and locks live, opened and migrated. */
export interface Storage {
  database: Knex;
  /** The statements every API request runs, on the quickest path the database offers. */
  reads: PreparedReads;
  eventStore: EventStore;
  /** How processors (projections, relay) make sure one instance is active. */
  acquireLock: AcquireLock;
  /** Shown by /readyz and the start-up log. */
  description: string;
  /** What the storage itself adds to /readyz, by name: each true while its part works. */
  readinessChecks: Record<string, () => Promise<boolean>>;
  /** Delivers the NOTIFYs of a channel to this process (see ChannelListenerHandlers for what each call means). */
  listen(channel: string, handlers: ChannelListenerHandlers): ChannelSubscription;
  close(): Promise<void>;
}

export interface ChannelSubscription {
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The database and event store servers; the composition root picks these or the embedded ones by mode. */
export async function openServerStorage(
  storage: StorageSettings,
  readModelSchema: readonly string[],
): Promise<Storage> {
  await ensureDatabase(storage.databaseUrl);
  const database = createKnex(storage.databaseUrl, storage.databasePoolSize);
  let eventStore: EventStore | null = null;
  try {
    await migrateReadModels(database, readModelSchema);
    eventStore = await createEventStore(storage);
  } catch (error) {
    // Tried again while the server is out of reach: nothing of this try may stay open.
    await eventStore?.close();
    await database.destroy();
    throw error;
  }
  const opened = eventStore;
  const reads = new PoolPreparedReads(storage.databaseUrl, storage.databasePoolSize);
  return {
    database,
    reads,
    eventStore: opened,
    acquireLock: sharedSessionLocks(),
    description: storage.eventStoreUrl === null ? 'PostgreSQL' : 'EventStoreDB and PostgreSQL',
    readinessChecks: {},
    listen: (channel, handlers) => new ChannelListener(storage.databaseUrl, channel, handlers),
    async close() {
      await opened.close();
      await reads.close();
      await database.destroy();
    },
  };
}

const EMBEDDED_IDLE_POLL_MS = 60_000;

/**
 * The directory holds the owner lock beside PGlite's own files (in `pgdata`); a new database is a copy of `template`'s
 * when one is given.
 */
export async function openEmbeddedStorage(
  directory: string,
  readModelSchema: readonly string[],
  template: string | null = null,
): Promise<Storage> {
  await mkdir(directory, { recursive: true });
  const lock = await lockDataDirectory(directory);
  try {
    const embedded = await openEmbeddedDatabase(path.join(directory, 'pgdata'), template);
    // Every append is this process's own and wakes every subscription, so an idle poll only guards against a bug: once a minute.
    const eventStore = new PgliteEventStore(embedded.db, { idlePollMs: EMBEDDED_IDLE_POLL_MS });
    try {
      await eventStore.migrate();
      await migrateReadModels(embedded.db, readModelSchema);
    } catch (error) {
      await eventStore.close();
      await embedded.close();
      throw error;
    }
    return {
      database: embedded.db,
      reads: new PglitePreparedReads(embedded.db),
      eventStore,
      acquireLock: inProcessLocks(),
      description: `PGlite in ${directory}`,
      readinessChecks: { dataDirectoryLock: async () => lock.beating },
      listen: (channel, handlers) => new PgliteChannelListener(embedded.pglite, channel, handlers),
      async close() {
        await eventStore.close();
        await embedded.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
