import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { loadConfig } from '../config/config.js';

/**
 * `npm run restore-event-order`: run once after restoring the PostgreSQL event
 * store onto a server whose transaction counter is behind the stored ids
 * (pg_dump/pg_restore, a logical-replication switchover, pg_resetwal), which
 * the service refuses to start with. It starts a new order epoch: new events
 * sort after all stored ones, and projections and the relay carry on from
 * their checkpoints. Prints `{"epoch": n}`.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.storage.eventStoreUrl !== null)
    throw new Error(
      'EVENTSTORE_URL selects EventStoreDB, whose order does not depend on transaction ids: nothing to do',
    );
  const store = new PostgresEventStore({ connectionString: config.storage.databaseUrl, poolSize: 1 });
  try {
    const epoch = await store.startNewOrderEpoch();
    process.stdout.write(`${JSON.stringify({ epoch })}\n`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
