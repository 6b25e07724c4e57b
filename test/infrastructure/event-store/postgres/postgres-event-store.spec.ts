import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { describeEventStoreContract } from '../contract.js';

describe('PostgreSQL event store', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('es_contract');
  });
  after(async () => database?.drop());

  it('migrates idempotently, also from several processes at once', async () => {
    const stores = Array.from(
      { length: 4 },
      () => new PostgresEventStore({ connectionString: database.url, poolSize: 1 }),
    );
    try {
      await Promise.all(stores.map((store) => store.migrate()));
      await stores[0].migrate();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const tables = await client.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE tablename LIKE 'es\\_%' ORDER BY tablename`,
      );
      assert.deepEqual(
        tables.rows.map((row) => row.tablename),
        ['es_events', 'es_order_epoch', 'es_streams'],
      );
    } finally {
      await client.end();
    }
  });

  it('appends in READ COMMITTED whatever the server default, so concurrent appends to one stream see each other', async () => {
    const strict = await createTestDatabase('es_repeatable_read');
    const admin = new pg.Client({ connectionString: strict.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${strict.name} SET default_transaction_isolation TO 'repeatable read'`);
    await admin.end();
    const store = new PostgresEventStore({ connectionString: strict.url, poolSize: 8 });
    try {
      await store.migrate();
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          store.appendToStream('race-1', [{ id: randomUUID(), type: 'Raced', data: { i } }], {
            expectedRevision: 'any',
          }),
        ),
      );
      assert.deepEqual(
        results.map((result) => result.nextExpectedRevision).sort((a, b) => a - b),
        Array.from({ length: 24 }, (_, i) => i),
      );
    } finally {
      await store.close();
      await strict.drop();
    }
  });

  describeEventStoreContract('PostgreSQL', async () => {
    const store = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 50 });
    await store.migrate();
    return { store, cleanup: () => store.close() };
  });
});
