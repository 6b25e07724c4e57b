import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '../../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestDatabase, createTestDatabase } from '../../../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../../../support/tcp-proxy.js';
import { newEvent } from '../../contract.js';

describe('PostgreSQL event store: the server connection lost during an append', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let proxy: TcpProxy;

  before(async () => {
    database = await createTestDatabase('es_connection_loss');
    const direct = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 60_000 });
    await direct.migrate();
    await direct.close();
    const url = new URL(database.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
  });
  after(async () => {
    await proxy?.close();
    await database?.drop();
  });

  // Found by the soak run (`npm run soak -- --short --seed 2`): a database restart ended the workers and an API process.
  it('fails that append and the process lives on: the checked-out connection dying is not an unhandled error', async () => {
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = new PostgresEventStore({ connectionString: url.toString(), pollIntervalMs: 60_000 });
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    const stream = `held-${randomUUID()}`;
    try {
      // Holding the stream's lock keeps the append inside its transaction, its connection checked out of the pool.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [stream]);
      const append = store.appendToStream(stream, [newEvent('Happened')], { expectedRevision: 'no_stream' });
      append.catch(() => undefined);
      const deadline = Date.now() + 20_000;
      while (
        (await holder.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rowCount === 0
      ) {
        assert.ok(Date.now() < deadline, 'the append never waited for the stream lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      proxy.cut();
      await assert.rejects(append);
      proxy.restore();
      await holder.query('ROLLBACK');
      // The pool replaced the broken connection: the next append goes through.
      await store.appendToStream(stream, [newEvent('Happened')], { expectedRevision: 'no_stream' });
      assert.equal((await store.readStream(stream)).length, 1);
    } finally {
      proxy.restore();
      await holder.end();
      await store.close();
    }
  });
});
