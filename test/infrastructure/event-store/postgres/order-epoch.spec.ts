import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { TransactionIdsAheadError } from '../../../../infrastructure/event-store/postgres/order-epoch.js';
import { PostgresEventStore } from '../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';

const run = promisify(execFile);

describe('PostgreSQL event store after a restore onto a server with fewer transactions', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('es_restore');
  });
  after(async () => database?.drop());

  it('refuses to start while stored transaction ids are ahead, and after the restore command orders new events after every stored one', async () => {
    const before = new PostgresEventStore({ connectionString: database.url });
    await before.migrate();
    await before.appendToStream(
      'restored-1',
      [
        { id: randomUUID(), type: 'A', data: {} },
        { id: randomUUID(), type: 'B', data: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    await before.close();
    // What a restore looks like from here: the stored ids are far ahead of the server's counter.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `UPDATE es_events SET transaction_id = ((transaction_id::text)::bigint + 1000000000)::text::xid8`,
    );
    await admin.end();

    const refused = new PostgresEventStore({ connectionString: database.url });
    await assert.rejects(refused.migrate(), (error: unknown) => {
      assert.ok(error instanceof TransactionIdsAheadError);
      assert.match(error.message, /npm run restore-event-order/);
      return true;
    });
    await refused.close();

    const { stdout } = await run(process.execPath, ['build/infrastructure/cli/restore-event-order.js'], {
      env: { ...process.env, DATABASE_URL: database.url },
    });
    assert.deepEqual(JSON.parse(stdout), { epoch: 1 });

    const store = new PostgresEventStore({ connectionString: database.url });
    try {
      await store.migrate();
      const [, lastRestored] = await store.readStream('restored-1');
      const appended = await store.appendToStream('restored-1', [{ id: randomUUID(), type: 'C', data: {} }], {
        expectedRevision: 1,
      });
      assert.ok(
        store.compare(appended.position, lastRestored.position) > 0,
        'the new event sorts after the restored ones',
      );
      const deadline = Date.now() + 10_000;
      let after = await store.readAll({ after: lastRestored.position, filter: { streamPrefixes: ['restored-'] } });
      while (after.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await store.readAll({ after: lastRestored.position, filter: { streamPrefixes: ['restored-'] } });
      }
      assert.deepEqual(
        after.map((event) => event.type),
        ['C'],
        'a reader at the last restored event still gets the new one',
      );
      assert.deepEqual(
        (await store.readAll({ filter: { streamPrefixes: ['restored-'] } })).map((event) => event.type),
        ['A', 'B', 'C'],
      );
    } finally {
      await store.close();
    }
  });
});
