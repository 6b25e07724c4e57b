import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { idOneDigitShorter, storeEventRow } from '../../support/stored-event-rows.js';

/** Ids are compared as numbers, not as the text they are read as: the server's counter gains a digit now and then. */
describe('PostgreSQL event store: the head once transaction ids gain a digit', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: pg.Pool;

  before(async () => {
    database = await createTestDatabase('es_head');
    store = new PostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    pool.on('error', () => undefined);
  });
  after(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('is the last event in the store order, whatever the number of digits of its transaction id or global position', async () => {
    const older = await idOneDigitShorter(pool);
    const stream = `digits-${randomUUID()}`;
    await storeEventRow(pool, { transactionId: older, streamName: stream, revision: 0, globalPosition: 9 });
    const tenth = await storeEventRow(pool, { transactionId: older, streamName: stream, revision: 1, globalPosition: 10 });
    assert.equal(await store.headPosition(), tenth, 'position 10 of a transaction comes after its position 9');

    const appended = await store.appendToStream(`digits-${randomUUID()}`, [{ id: randomUUID(), type: 'Appended', data: {} }], { expectedRevision: 'no_stream' });
    assert.equal(await store.headPosition(), appended.position, `an append now (transaction id of more digits than ${older}) is the head`);
    assert.ok(store.compare(appended.position, tenth) > 0);
  });
});
