import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { portBelowEphemeralRange } from '../support/port-below-ephemeral-range.js';
import { TEST_POSTGRES_URL, releaseTestDatabase, testDatabaseName } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

/** As a `docker compose up` of several roles does: processes started at the same moment on a database nobody created yet. */
describe('service processes starting together on a new database', function () {
  this.timeout(120_000);
  const name = testDatabaseName('start_together');
  const stream = `VDS_START_TOGETHER_${randomBytes(3).toString('hex').toUpperCase()}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  let dataDir: string;
  const started: Started[] = [];

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vds-start-together-'));
  });
  after(async () => {
    for (const { child } of started) child.kill('SIGKILL');
    await Promise.all(started.map(({ exited }) => exited));
    await releaseTestDatabase(name);
    const { connect } = await import('nats');
    const nc = await connect({ servers: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222' });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => false);
    await nc.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  function start(role: 'api' | 'projector', port: number): Started {
    const child = spawn(process.execPath, [path.resolve('build/infrastructure/main.js'), '--role', role], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
        NATS_STREAM: stream,
        DATA_DIR: dataDir,
        DATABASE_POOL_SIZE: '2',
        WARM_EXTRACTOR_PROCESSES: '0',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const started_ = { child, exited, output: () => output };
    started.push(started_);
    return started_;
  }

  /** Polls until `ready` holds; a process of `watched` that exits first ends the wait with its exit and output. */
  async function until(ready: () => Promise<boolean>, watched: Started[]): Promise<void> {
    const deadline = Date.now() + 90_000;
    const died = Promise.race(
      watched.map(async (one) => `a process exited (${String(await one.exited)}): ${one.output().slice(-2_000)}`),
    );
    while (!(await ready().catch(() => false))) {
      const outcome = await Promise.race([died, sleep(200).then(() => null)]);
      if (outcome !== null) assert.fail(outcome);
      assert.ok(Date.now() < deadline, 'not ready after 90 s');
    }
  }

  async function checkpoints(): Promise<number> {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query('SELECT count(*)::int AS n FROM projection_checkpoints')).rows[0].n as number;
    } finally {
      await client.end();
    }
  }

  it('every one starts: the database is created once, and schemas migrate one process at a time', async () => {
    const base = portBelowEphemeralRange(13);
    const ports = [base, base + 1, base + 2];
    const processes = [
      ...ports.map((port) => start('api', port)),
      ...ports.map((port) => start('projector', port + 10)),
    ];
    for (const port of ports)
      await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, processes);
    // Every projection has a checkpoint once some projector runs them.
    await until(async () => (await checkpoints()) >= 4, processes);
    for (const { child } of processes) child.kill('SIGTERM');
    assert.deepEqual(
      await Promise.all(processes.map(({ exited }) => exited)),
      processes.map(() => 0),
      'each ran, and stops cleanly',
    );
  });
});
