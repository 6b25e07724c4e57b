import type { EventStore } from '../../application/ports/event-store.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';

/** EventStoreDB when EVENTSTORE_URL names one (its gRPC client loads only then); otherwise the PostgreSQL store in DATABASE_URL. */
export async function createEventStore(storage: StorageSettings): Promise<EventStore> {
  if (storage.eventStoreUrl !== null) {
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store.js');
    return new EventStoreDbEventStore({ url: storage.eventStoreUrl });
  }
  const store = new PostgresEventStore({ connectionString: storage.databaseUrl, poolSize: storage.databasePoolSize });
  await store.migrate();
  return store;
}
