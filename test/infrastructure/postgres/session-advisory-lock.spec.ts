import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../../application/ports/logger.js';
import { acquireSessionLock } from '../../../infrastructure/postgres/session-advisory-lock.js';
import { abortedWithin } from '../../support/aborted-within.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../support/tcp-proxy.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('session advisory lock: a dropped connection', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;

  before(async () => {
    database = await createTestDatabase('session_lock');
    proxy = await startTcpProxy('127.0.0.1', 5432);
  });
  after(async () => {
    await proxy.close();
    await database.drop();
  });

  it("notices at once when the server ends the lock's backend, and another session then takes the lock", async () => {
    const key = `lock-test-${randomUUID()}`;
    const held = await acquireSessionLock({
      connectionString: database.url,
      key,
      logger: silent,
      probeMs: 200,
      probeTimeoutMs: 500,
    });
    assert.ok(held !== null);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ terminated: boolean }>(
        'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1',
        [`lock ${key}`.slice(0, 63)],
      );
      assert.deepEqual(rows, [{ terminated: true }]);
    } finally {
      await admin.end();
    }
    assert.equal(await abortedWithin(held.lost, 2_000), true);
    const next = await acquireSessionLock({ connectionString: database.url, key, logger: silent, timeoutMs: 2_000 });
    assert.ok(next !== null, 'the lock went with the session');
    await next.release();
    await held.release();
  });

  it('notices within the probe timeout when the connection goes silent, instead of waiting for TCP to give up', async () => {
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const held = await acquireSessionLock({
      connectionString: viaProxy.toString(),
      key: `lock-test-${randomUUID()}`,
      logger: silent,
      probeMs: 200,
      probeTimeoutMs: 500,
    });
    assert.ok(held !== null);
    proxy.freeze();
    try {
      assert.equal(
        await abortedWithin(held.lost, 3_000),
        true,
        'the lock is given up within about a probe and its timeout',
      );
    } finally {
      proxy.restore();
      await held.release();
    }
  });
});
