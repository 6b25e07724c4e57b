import type { Knex } from 'knex';
import type { Logger } from '../../../application/ports/logger.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { InProcessWorkQueue } from '../../../infrastructure/work-queue/in-process-work-queue.js';
import { createTestDatabase } from '../../support/postgres.js';
import { openEmbeddedDatabase } from '../../../infrastructure/embedded/embedded-database.js';
import { PgliteEventStore } from '../../../infrastructure/event-store/pglite/pglite-event-store.js';
import { inProcessLocks } from '../../../infrastructure/embedded/in-process-locks.js';
import { describeWorkQueueContract } from './contract.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describeWorkQueueContract('in-process, on a PostgreSQL server', async () => {
  const database = await createTestDatabase('work_queue_in_process');
  const db: Knex = createKnex(database.url);
  const store = new InMemoryEventStore();
  const processor = { db, store, connectionString: database.url, logger: silent, lockRetryMs: 100 };
  return {
    store,
    subjectPrefix: 'work',
    open: () => InProcessWorkQueue.open({ processor, logger: silent, exclusive: true, pollIntervalMs: 50 }),
    async cleanup() {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
});

describeWorkQueueContract('in-process, on the embedded PGlite database', async () => {
  const embedded = await openEmbeddedDatabase(null);
  const store = new PgliteEventStore(embedded.db, { pollIntervalMs: 50 });
  await store.migrate();
  const processor = {
    db: embedded.db,
    store,
    connectionString: '',
    acquireLock: inProcessLocks(),
    logger: silent,
    lockRetryMs: 100,
  };
  return {
    store,
    subjectPrefix: 'work',
    open: () => InProcessWorkQueue.open({ processor, logger: silent, exclusive: true, pollIntervalMs: 50 }),
    async cleanup() {
      await store.close();
      await embedded.close();
    },
  };
});

// The embedded service's settings: consumers sleep up to 30 s and rely on being woken (new work, a retry put back) or on
// the time their next row falls due, never on polling.
describeWorkQueueContract('in-process, on the embedded PGlite database, with the default idle wait', async () => {
  const embedded = await openEmbeddedDatabase(null);
  const store = new PgliteEventStore(embedded.db);
  await store.migrate();
  const processor = {
    db: embedded.db,
    store,
    connectionString: '',
    acquireLock: inProcessLocks(),
    logger: silent,
    lockRetryMs: 100,
  };
  return {
    store,
    subjectPrefix: 'work',
    open: () => InProcessWorkQueue.open({ processor, logger: silent, exclusive: true }),
    async cleanup() {
      await store.close();
      await embedded.close();
    },
  };
});
