import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { describeEventStoreContract } from './contract.js';

describe('PostgreSQL event store', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('es_contract');
  });
  after(async () => database?.drop());

  it('migrates idempotently, also from several processes at once', async () => {
    const stores = Array.from({ length: 4 }, () => new PostgresEventStore({ connectionString: database.url, poolSize: 1 }));
    try {
      await Promise.all(stores.map((store) => store.migrate()));
      await stores[0].migrate();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const tables = await client.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'es\\_%' ORDER BY tablename`);
      assert.deepEqual(tables.rows.map((row) => row.tablename), ['es_events', 'es_streams']);
    } finally {
      await client.end();
    }
  });

  describeEventStoreContract('PostgreSQL', async () => {
    const store = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 50 });
    await store.migrate();
    return { store, cleanup: () => store.close() };
  });
});
