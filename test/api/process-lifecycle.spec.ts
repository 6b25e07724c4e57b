import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { portBelowEphemeralRange } from '../support/port-below-ephemeral-range.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the service process', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let dataDir: string;

  before(async () => {
    database = await createTestDatabase('lifecycle');
    dataDir = await mkdtemp(path.join(tmpdir(), 'vds-lifecycle-'));
  });
  after(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  function start(
    env: Record<string, string>,
    args: string[] = [],
  ): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
    const child = spawn(process.execPath, [path.resolve('build/infrastructure/main.js'), ...args], {
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, stderr: () => stderr };
  }

  it('refuses to start with a bad setting, naming it', async () => {
    const { exited, stderr } = start({ WORKER_CONCURRENCY: 'lots' });
    assert.equal(await exited, 1);
    assert.match(stderr(), /WORKER_CONCURRENCY must be a whole number/);
  });

  it('refuses to start with an ack wait shorter than a webhook attempt, naming both settings', async () => {
    const { exited, stderr } = start({ WORK_ACK_WAIT_MS: '10000', WEBHOOK_TIMEOUT_MS: '15000' });
    assert.equal(await exited, 1);
    assert.match(stderr(), /WORK_ACK_WAIT_MS \(10000\) must be at least WEBHOOK_TIMEOUT_MS \(15000\)/);
  });

  it('stopped while it starts, finishes starting, then stops and exits 0', async () => {
    // Holding the event store's schema lock keeps a starting projector waiting inside its start-up.
    const holder = new pg.Client({ connectionString: database.url });
    const observer = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await observer.connect();
    const stream = `VDS_LIFECYCLE_${randomBytes(3).toString('hex').toUpperCase()}`;
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext('es-schema'))`);
      const { child, exited } = start({ NATS_STREAM: stream }, ['--role', 'projector']);
      // Asked from another connection: within the holder's transaction, pg_stat_activity would show one frozen snapshot.
      const waiting = async () =>
        (
          await observer.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
          )
        ).rows[0].n > 0;
      const deadline = Date.now() + 30_000;
      while (!(await waiting())) {
        assert.ok(Date.now() < deadline, 'the projector never reached the schema lock');
        await sleep(50);
      }
      child.kill('SIGTERM');
      await holder.query('COMMIT');
      const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout')]);
      assert.equal(code, 0);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await observer.end();
      const { connect } = await import('nats');
      const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => false);
      await nc.close();
    }
  });

  it('becomes ready, then on SIGTERM stops accepting and exits 0', async () => {
    const port = portBelowEphemeralRange();
    const stream = `VDS_LIFECYCLE_${randomBytes(3).toString('hex').toUpperCase()}`;
    const { child, exited } = start({ PORT: String(port), HOST: '127.0.0.1', NATS_STREAM: stream });
    const base = `http://127.0.0.1:${port}`;
    let ready = false;
    for (let i = 0; i < 100 && !ready; i += 1) {
      ready = await fetch(`${base}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (!ready) await sleep(200);
    }
    assert.ok(ready, 'the service became ready');
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout')]);
    assert.equal(code, 0);
    await assert.rejects(fetch(`${base}/healthz`));
    const { connect } = await import('nats');
    const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => false);
    await nc.close();
  });
});
