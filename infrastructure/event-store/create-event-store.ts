import type { EventStore } from '../../application/ports/event-store.js';
import type { Config } from '../config/config.js';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';

/** EventStoreDB when EVENTSTORE_URL names one; otherwise the PostgreSQL store in DATABASE_URL. */
export async function createEventStore(config: Config): Promise<EventStore> {
  if (config.eventStoreUrl !== null) return new EventStoreDbEventStore({ url: config.eventStoreUrl });
  const store = new PostgresEventStore({ connectionString: config.databaseUrl, poolSize: config.databasePoolSize });
  await store.migrate();
  return store;
}
