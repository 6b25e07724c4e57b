import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EventStore } from '../../../../../application/ports/event-store.js';
import { openEmbeddedDatabase } from '../../../../../infrastructure/embedded/embedded-database.js';
import { PgliteEventStore } from '../../../../../infrastructure/event-store/pglite/pglite-event-store.js';
import { PostgresEventStore } from '../../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import type { SqlClient } from '../../../../../infrastructure/event-store/postgres/sql-client.js';
import { createTestDatabase } from '../../../../support/postgres.js';
import { idOneDigitShorter, storeEventRow } from '../../../../support/stored-event-rows.js';

interface Opened {
  store: EventStore;
  /** Plain SQL on the store's database, for rows stored as earlier transactions left them. */
  sql: SqlClient;
  close(): Promise<void>;
}

/** Ids are compared as numbers, not as the text they are read as: the server's counter gains a digit now and then. */
function describeHeadAcrossDigits(label: string, open: () => Promise<Opened>): void {
  describe(`${label} event store: the head once transaction ids gain a digit`, function () {
    this.timeout(120_000);
    let opened: Opened;
    before(async () => {
      opened = await open();
    });
    after(async () => opened?.close());

    it('is the last event in the store order, whatever the number of digits of its transaction id or global position', async () => {
      const { store, sql } = opened;
      const older = await idOneDigitShorter(sql);
      const stream = `digits-${randomUUID()}`;
      await storeEventRow(sql, { transactionId: older, streamName: stream, revision: 0, globalPosition: 9 });
      const tenth = await storeEventRow(sql, {
        transactionId: older,
        streamName: stream,
        revision: 1,
        globalPosition: 10,
      });
      assert.equal(await store.headPosition(), tenth, 'position 10 of a transaction comes after its position 9');

      const appended = await store.appendToStream(
        `digits-${randomUUID()}`,
        [{ id: randomUUID(), type: 'Appended', data: {} }],
        { expectedRevision: 'no_stream' },
      );
      assert.equal(
        await store.headPosition(),
        appended.position,
        `an append now (transaction id of more digits than ${older}) is the head`,
      );
      assert.ok(store.compare(appended.position, tenth) > 0);
    });
  });
}

describeHeadAcrossDigits('PostgreSQL', async () => {
  const database = await createTestDatabase('es_head');
  const store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  pool.on('error', () => undefined);
  return {
    store,
    sql: pool,
    async close() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
});

describeHeadAcrossDigits('PGlite', async () => {
  const database = await openEmbeddedDatabase(null);
  const store = new PgliteEventStore(database.db);
  await store.migrate();
  return {
    store,
    sql: database.pglite,
    async close() {
      await store.close();
      await database.close();
    },
  };
});
