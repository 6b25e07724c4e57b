import type { EventStore } from '../../application/ports/event-store.js';
import { InMemoryEventStore } from '../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';

export interface EventStoreAdapter {
  name: string;
  /** A store on the suite's own database, ready to append to. */
  open(databaseUrl: string): Promise<EventStore>;
}

/**
 * The adapters that checkpointed processors are tested against: in-memory for
 * speed, PostgreSQL because its positions, xmin-gated reads and wake-ups are
 * what runs in production.
 */
export const EVENT_STORE_ADAPTERS: readonly EventStoreAdapter[] = [
  { name: 'in-memory', open: async () => new InMemoryEventStore() },
  {
    name: 'PostgreSQL',
    async open(databaseUrl) {
      const store = new PostgresEventStore({ connectionString: databaseUrl });
      await store.migrate();
      return store;
    },
  },
];
