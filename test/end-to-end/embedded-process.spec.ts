import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';

const runFile = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SERVER_PORTS = [5432, 4222];

/** The remote ports of the TCP connections a process has open, from its socket inodes and the kernel's tables. */
async function remoteTcpPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9])) ports.push(Number.parseInt(columns[2].split(':')[1], 16));
    }
  }
  return ports;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The service as a user starts it, with none of DATABASE_URL, EVENTSTORE_URL
 * and NATS_URL set: one process, PGlite under DATA_DIR, the in-process queue.
 */
describe('the embedded service process: no servers, kill -9 mid-job, CLIs beside it', function () {
  this.timeout(300_000);
  let platform: FixturePlatform;
  let dataDir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let service: { child: ChildProcess; exited: Promise<number | null> } | null = null;
  let call: ReturnType<typeof apiClient>;
  let account: { accountId: string; apiKey: string };

  before(async () => {
    platform = await startFixturePlatform();
    dataDir = await mkdtemp(path.join(tmpdir(), 'vds-embedded-'));
    port = await freePort();
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ...serviceEnvFor(platform),
    };
    for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL']) delete env[name];
    call = apiClient(`http://127.0.0.1:${port}`);
  });

  after(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await platform?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    const child = spawn(process.execPath, [path.resolve('build/infrastructure/main.js')], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    service = { child, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return;
      assert.ok(Date.now() < deadline, 'the service became ready');
      assert.equal(service.child.exitCode, null, 'the service is still running');
      await sleep(250);
    }
  }

  function cli(script: 'admin' | 'audit', ...args: string[]): Promise<{ stdout: string; stderr: string }> {
    return runFile(process.execPath, [path.resolve(`build/infrastructure/cli/${script}.js`), ...args], {
      env: { ...env, LOG_LEVEL: 'silent' },
    });
  }

  async function pollUntil(jobId: string, done: (status: string) => boolean): Promise<Record<string, any>> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const response = await call('GET', `/api/v2/download/${jobId}`, { key: account.apiKey });
      assert.equal(response.status, 200);
      if (done(response.body.status)) return response.body;
      assert.ok(Date.now() < deadline, `job ${jobId} still ${response.body.status}`);
      await sleep(100);
    }
  }

  it('starts embedded and opens no connection to a PostgreSQL or NATS port', async () => {
    await start();
    const ready = await call('GET', '/readyz');
    assert.equal(ready.body.mode, 'embedded');
    assert.deepEqual(ready.body.checks, {
      postgres: 'ok',
      eventStore: 'ok',
      workQueue: 'ok',
      projections: 'ok',
      relay: 'ok',
      workConsumers: 'ok',
      liveStatus: 'ok',
      dataDirectoryLock: 'ok',
    });
    const ports = await remoteTcpPorts(service?.child.pid as number);
    assert.deepEqual(
      ports.filter((remote) => SERVER_PORTS.includes(remote)),
      [],
      `remote ports ${ports.join(', ')}`,
    );
  });

  it('runs the admin and audit CLIs inside the running service', async () => {
    const created = JSON.parse(
      (await cli('admin', 'create-account', '--name', 'Embedded', '--email', 'e@example.com', '--plan', 'starter'))
        .stdout,
    );
    account = { accountId: created.accountId, apiKey: created.apiKey };
    assert.equal((await call('GET', '/api/v2/me', { key: account.apiKey })).status, 200);
    const audit = await cli('audit', account.accountId);
    assert.match(audit.stdout, /OK: the service reports the same balances/);
    await assert.rejects(
      cli('admin', 'grant', '--account', 'nobody', '--feature', 'info', '--units', '1'),
      (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr ?? '', /Account not found/);
        return true;
      },
    );
  });

  it('resumes a job whose process was killed with SIGKILL mid-download, and completes it once', async () => {
    const submitted = await call('POST', '/api/v2/download', {
      key: account.apiKey,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.slow.id) },
    });
    assert.equal(submitted.status, 200);
    const { jobId } = submitted.body;
    await pollUntil(jobId, (status) => status === 'IN_PROGRESS');
    service?.child.kill('SIGKILL');
    await service?.exited;

    await start();
    const done = await pollUntil(jobId, (status) => status === 'COMPLETED' || status === 'FAILED');
    assert.equal(done.status, 'COMPLETED');
    const file = await fetch(done.downloadUrl);
    assert.equal(Buffer.from(await file.arrayBuffer()).length, done.fileSize);
    const used = async () =>
      (await call('GET', '/api/v2/me', { key: account.apiKey })).body.balances.download_count.used;
    const deadline = Date.now() + 20_000;
    while ((await used()) !== 1 && Date.now() < deadline) await sleep(100);
    await sleep(500);
    assert.equal(await used(), 1, 'charged once');
    const ports = await remoteTcpPorts(service?.child.pid as number);
    assert.deepEqual(
      ports.filter((remote) => SERVER_PORTS.includes(remote)),
      [],
    );
  });

  it('lets the CLIs open the data directory themselves once the service is stopped', async () => {
    service?.child.kill('SIGTERM');
    assert.equal(await service?.exited, 0);
    service = null;
    const listed = JSON.parse((await cli('admin', 'list-accounts')).stdout) as Array<{ accountId: string }>;
    assert.deepEqual(
      listed.map((entry) => entry.accountId),
      [account.accountId],
    );
    const audit = await cli('audit', account.accountId, '--json');
    assert.deepEqual(JSON.parse(audit.stdout).differences, []);
  });
});
