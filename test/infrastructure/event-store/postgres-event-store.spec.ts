import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { describeEventStoreContract } from './contract.js';

describe('PostgreSQL event store', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('es_contract');
    const store = new PostgresEventStore({ connectionString: database.url });
    await store.migrate();
    await store.close();
  });
  after(async () => database?.drop());

  describeEventStoreContract('PostgreSQL', async () => {
    const store = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 50 });
    return { store, cleanup: () => store.close() };
  });
});
