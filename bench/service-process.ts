import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../infrastructure/config/config.js';
import { type TestDatabase, createTestDatabase } from '../test/support/postgres.js';

const MAIN = path.join(__dirname, '..', 'infrastructure', 'main.js');

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>/api/v2`. */
  api: string;
  pid: number;
  /** The settings the child runs with, for opening the same database and keys in this process. */
  config: Config;
  env: Record<string, string>;
  database: TestDatabase;
  /** Ends it, and answers its whole log (JSON lines; the service buffers them until it exits). */
  stop(): Promise<string>;
}

/**
 * The service as it is deployed: its own Node process (`main.js` with the
 * given roles), production log level, logs written to a file, on a throwaway
 * database and NATS stream. The bench process only drives it.
 */
export async function startServiceProcess(options: {
  roles: string[];
  env?: Record<string, string>;
  label: string;
  nodeArgs?: string[];
}): Promise<ServiceProcess> {
  const database = await createTestDatabase(options.label);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-service-'));
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    NATS_STREAM: `VDS_BENCH_${randomBytes(4).toString('hex').toUpperCase()}`,
    DATA_DIR: dataDir,
    WORK_DIR: path.join(dataDir, 'work'),
    MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const main = spawnMain(options.roles, env, path.join(dataDir, 'service.log'), options.nodeArgs);
  const api = `http://127.0.0.1:${port}/api/v2`;
  const stop = async () => {
    await main.stop();
    const log = await readFile(path.join(dataDir, 'service.log'), 'utf8').catch(() => '');
    await deleteNatsStream(env.NATS_STREAM);
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    return log;
  };
  try {
    await waitUntilHealthy(`http://127.0.0.1:${port}/healthz`, main.child, main.stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { api, pid: main.child.pid as number, config: loadConfig(env), env, database, stop };
}

export interface RoleProcess {
  pid: number;
  /** Throws, with the end of its stderr, once the process has exited. */
  assertRunning(): void;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

/**
 * Another process of the same deployment as `service` (its database, NATS
 * stream, files and master key), with other roles, such as a worker; its log
 * beside the service's. Not waited for: roles without the API have no health
 * endpoint, and a bench may time their start-up.
 */
export function startRoleProcess(service: ServiceProcess, roles: string[], label: string): RoleProcess {
  const main = spawnMain(roles, service.env, path.join(service.env.DATA_DIR, `${label}.log`));
  return {
    pid: main.child.pid as number,
    assertRunning: () => {
      if (main.child.exitCode !== null || main.child.signalCode !== null)
        throw new Error(
          `the ${label} process exited (${main.child.exitCode ?? main.child.signalCode}): ${main.stderr()}`,
        );
    },
    stop: main.stop,
  };
}

/** `BENCH_SERVICE_NODE_ARGS` (e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`): Node refuses profiling flags in NODE_OPTIONS. */
function profilingArgs(): string[] {
  return (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
}

/** `main.js` with the given roles, its stdout in a log file; killed if the bench exits first. */
function spawnMain(roles: string[], env: Record<string, string>, logFile: string, nodeArgs: string[] = []) {
  const log = createWriteStream(logFile);
  const logClosed = new Promise<void>((resolve) => log.once('close', () => resolve()));
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, ...profilingArgs(), MAIN, ...roles.flatMap((role) => ['--role', role])],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // However the bench ends (an error, a closed pipe), the processes it started end with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    log.end();
    await logClosed;
  };
  return { child, stderr: () => stderr, stop };
}

export async function waitUntilHealthy(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stderr()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service did not become healthy: ${stderr()}`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function deleteNatsStream(name: string): Promise<void> {
  const { connect } = await import('nats');
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  try {
    await (await nc.jetstreamManager()).streams.delete(name).catch(() => false);
  } finally {
    await nc.close();
  }
}
