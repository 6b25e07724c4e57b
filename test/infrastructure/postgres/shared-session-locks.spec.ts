import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../../application/ports/logger.js';
import { acquireSessionLock } from '../../../infrastructure/postgres/session-advisory-lock.js';
import {
  SHARED_LOCKS_APPLICATION_NAME,
  sharedSessionLocks,
} from '../../../infrastructure/postgres/shared-session-locks.js';
import { advisoryLockHolders } from '../../support/advisory-lock-holders.js';
import { abortedWithin } from '../../support/aborted-within.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../support/tcp-proxy.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('shared session locks: every leadership lock of a process on one connection', () => {
  let database: TestDatabase;
  let admin: pg.Client;

  before(async () => {
    database = await createTestDatabase('shared_locks');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    await admin.end();
    await database.drop();
  });

  const sessions = async (): Promise<number[]> => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [SHARED_LOCKS_APPLICATION_NAME],
    );
    return rows.map((row) => row.pid);
  };
  const keys = (count: number) => Array.from({ length: count }, () => `shared-lock-${randomUUID()}`);

  it('holds many locks on one session, which closes once the last is released', async () => {
    const acquire = sharedSessionLocks();
    const wanted = keys(5);
    const held = await Promise.all(
      wanted.map((key) => acquire({ connectionString: database.url, key, logger: silent, timeoutMs: 5_000 })),
    );
    const [session, ...others] = await sessions();
    assert.ok(session !== undefined && others.length === 0, 'one connection');
    for (const key of wanted) assert.deepEqual(await advisoryLockHolders(database.url, key), [session]);
    // Another process cannot take them while they are held, and takes one as soon as it is released.
    const elsewhere = await acquireSessionLock({
      connectionString: database.url,
      key: wanted[0],
      logger: silent,
      timeoutMs: 300,
    });
    assert.equal(elsewhere, null);
    await held[0]?.release();
    assert.deepEqual(await advisoryLockHolders(database.url, wanted[0]), []);
    assert.deepEqual(await advisoryLockHolders(database.url, wanted[1]), [session]);
    for (const lock of held.slice(1)) await lock?.release();
    assert.deepEqual(await sessions(), []);
  });

  it('makes a second taker of a key in the same process wait, although the session would grant it again', async () => {
    const acquire = sharedSessionLocks();
    const [key] = keys(1);
    const first = await acquire({ connectionString: database.url, key, logger: silent, timeoutMs: 5_000 });
    assert.ok(first !== null);
    const refused = await acquire({ connectionString: database.url, key, logger: silent, timeoutMs: 300, retryMs: 50 });
    assert.equal(refused, null);
    const waiting = acquire({ connectionString: database.url, key, logger: silent, timeoutMs: 5_000, retryMs: 50 });
    await first.release();
    const second = await waiting;
    assert.ok(second !== null, 'taken once released');
    assert.equal((await advisoryLockHolders(database.url, key)).length, 1);
    await second.release();
    assert.deepEqual(await advisoryLockHolders(database.url, key), []);
  });

  it('loses every lock when the server ends the session, lets others take them, and opens a new session after', async () => {
    const acquire = sharedSessionLocks();
    const wanted = keys(3);
    const held = await Promise.all(
      wanted.map((key) =>
        acquire({ connectionString: database.url, key, logger: silent, probeMs: 200, probeTimeoutMs: 500 }),
      ),
    );
    const [session] = await sessions();
    await admin.query('SELECT pg_terminate_backend($1)', [session]);
    for (const lock of held) assert.equal(await abortedWithin(lock?.lost as AbortSignal, 2_000), true);
    const other = await acquireSessionLock({
      connectionString: database.url,
      key: wanted[0],
      logger: silent,
      timeoutMs: 2_000,
    });
    assert.ok(other !== null, 'the lock went with the session');
    await other.release();
    const again = await acquire({ connectionString: database.url, key: wanted[1], logger: silent, timeoutMs: 2_000 });
    assert.ok(again !== null);
    const [newSession] = await sessions();
    assert.ok(newSession !== undefined && newSession !== session, 'a new session');
    // A lost lock's late release unlocks nothing on the new session.
    await held[1]?.release();
    assert.deepEqual(await advisoryLockHolders(database.url, wanted[1]), [newSession]);
    for (const lock of held) await lock?.release();
    await again.release();
    assert.deepEqual(await sessions(), []);
  });

  describe('a connection gone silent', () => {
    let proxy: TcpProxy;
    before(async () => {
      proxy = await startTcpProxy('127.0.0.1', 5432);
    });
    after(async () => proxy.close());

    it('loses every lock within a probe and its timeout, instead of waiting for TCP to give up', async () => {
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      const acquire = sharedSessionLocks();
      const held = await Promise.all(
        keys(2).map((key) =>
          acquire({ connectionString: viaProxy.toString(), key, logger: silent, probeMs: 200, probeTimeoutMs: 500 }),
        ),
      );
      proxy.freeze();
      try {
        for (const lock of held) assert.equal(await abortedWithin(lock?.lost as AbortSignal, 3_000), true);
      } finally {
        proxy.restore();
        for (const lock of held) await lock?.release();
      }
    });
  });
});
