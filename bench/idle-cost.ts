import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type TestDatabase, createTestDatabase } from '../test/support/postgres.js';
import { freePort, waitUntilHealthy } from './service-process.js';

const MAIN = path.join(__dirname, '..', 'infrastructure', 'main.js');
/**
 * Start-up leaves work behind for its first minute (V8 compacts the heap its start-up grew, a few times, about
 * 10-20 s in; the first sweeps and probes run): measured and printed apart, since a service idles for hours.
 */
const SETTLE_SECONDS = Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 60);
const WINDOW_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const CPU_TARGET_PERCENT = 1;
const EMBEDDED_RSS_TARGET_MB = 200;
/** `BENCH_IDLE_MODES=embedded` (or `server`) measures one mode alone. */
const MODES = (process.env.BENCH_IDLE_MODES ?? 'embedded,server').split(',').map((mode) => mode.trim());
// USER_HZ: the unit of utime and stime in /proc/<pid>/stat (100 on every Linux this runs on).
const TICKS_PER_SECOND = 100;

interface Idle {
  process: ChildProcess;
  database: TestDatabase | null;
  stop(): Promise<void>;
}

/**
 * What the whole service (every role, one process) costs while nothing
 * happens: CPU time over a window, read from /proc (the process, its child
 * processes such as the warm extractor helpers, and in server mode the
 * PostgreSQL backends serving its connections; NATS is shared and not
 * counted), and its resident memory at the end. Each mode is its own process
 * started here, left to settle first.
 */
export async function benchIdleCost(): Promise<void> {
  for (const embedded of [true, false]) {
    if (!MODES.includes(embedded ? 'embedded' : 'server')) continue;
    const service = await startIdleService(embedded);
    try {
      const pid = service.process.pid as number;
      const ready = await cpuTicks(pid, service.database);
      const settling = await sleepSeconds(SETTLE_SECONDS);
      const before = await cpuTicks(pid, service.database);
      const seconds = await sleepSeconds(WINDOW_SECONDS);
      const after = await cpuTicks(pid, service.database);
      const settled = cpuShares(before, after, seconds);
      const memory = await residentMemory(pid);
      const mode = embedded ? 'embedded' : 'server';
      const parts = [`process ${settled.own.toFixed(2)}%`, `helpers ${settled.children.toFixed(2)}%`];
      if (!embedded) parts.push(`PostgreSQL backends ${settled.postgres.toFixed(2)}%`);
      const first = cpuShares(ready, before, settling).total;
      console.log(
        `idle cost (${mode}, every role, ${seconds.toFixed(0)} s after ${settling.toFixed(0)} s settling): CPU ${settled.total.toFixed(2)}% of a core (${parts.join(', ')}; target < ${CPU_TARGET_PERCENT}%; ${first.toFixed(2)}% while settling)` +
          `; RSS ${memory.rss} MB (${memory.anonymous} MB anonymous, ${memory.file} MB of files)${embedded ? ` (target < ${EMBEDDED_RSS_TARGET_MB} MB)` : ''}`,
      );
    } finally {
      await service.stop();
    }
  }
}

async function startIdleService(embedded: boolean): Promise<Idle> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-idle-'));
  const database = embedded ? null : await createTestDatabase('bench_idle');
  const port = await freePort();
  const stream = `VDS_BENCH_IDLE_${randomBytes(4).toString('hex').toUpperCase()}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    WORK_DIR: path.join(dataDir, 'work'),
    MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
  };
  if (database !== null)
    Object.assign(env, {
      DATABASE_URL: database.url,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_STREAM: stream,
    });
  const inherited = { ...process.env };
  // The embedded mode is the one with none of the server URLs set.
  for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL', 'NATS_STREAM']) delete inherited[name];
  const log = createWriteStream(path.join(dataDir, 'service.log'));
  const child = spawn(process.execPath, [MAIN], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    process.off('exit', killOnExit);
    log.end();
    if (database !== null) {
      await deleteNatsStream(stream);
      await database.drop();
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`http://127.0.0.1:${port}/healthz`, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: child, database, stop };
}

type Ticks = Map<number, number>;
type Reading = { service: Ticks; children: Ticks; postgres: Ticks };

/** Sleeps, then says how many seconds really passed. */
async function sleepSeconds(seconds: number): Promise<number> {
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (performance.now() - started) / 1000;
}

/** Percent of a core spent between two readings, by part. */
function cpuShares(before: Reading, after: Reading, seconds: number) {
  const share = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds) * 100;
  const own = share(spent(before.service, after.service));
  const children = share(spent(before.children, after.children));
  const postgres = share(spent(before.postgres, after.postgres));
  return { own, children, postgres, total: own + children + postgres };
}

/** utime + stime per pid: the service, its live descendants, and the PostgreSQL backends connected to its database. */
async function cpuTicks(pid: number, database: TestDatabase | null): Promise<Reading> {
  const service = await ticksOfEach([pid]);
  const children = await ticksOfEach(await descendants(pid));
  const postgres = await ticksOfEach(database === null ? [] : await backendsOf(database));
  return { service, children, postgres };
}

/** CPU ticks spent between two readings: a process started in between counts whole; one that ended in between is lost (none do while idle). */
function spent(before: Ticks, after: Ticks): number {
  let total = 0;
  for (const [pid, ticks] of after) total += ticks - (before.get(pid) ?? 0);
  return total;
}

async function ticksOfEach(pids: number[]): Promise<Ticks> {
  const ticks: Ticks = new Map();
  for (const pid of pids) ticks.set(pid, await ticksOf(pid));
  return ticks;
}

async function ticksOf(pid: number): Promise<number> {
  const fields = await statFields(pid);
  // Fields after the command name: state is [0], utime [11], stime [12].
  return fields === null ? 0 : Number(fields[11]) + Number(fields[12]);
}

async function statFields(pid: number): Promise<string[] | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat === null ? null : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

async function descendants(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = await statFields(Number(entry));
    if (fields !== null) parents.set(Number(entry), Number(fields[1]));
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue;
      queue.push(pid);
      found.push(pid);
    }
  }
  return found;
}

/** The backends serving the service's database (our own probe's connection is to another database, so it is never counted). */
async function backendsOf(database: TestDatabase): Promise<number[]> {
  const client = new pg.Client({
    connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database.name,
    ]);
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Resident memory in MB, whole and split: anonymous (heaps, WebAssembly memory) and files (mostly the node binary's code). */
async function residentMemory(pid: number): Promise<{ rss: number; anonymous: number; file: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), anonymous: mb('RssAnon'), file: mb('RssFile') };
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

if (require.main === module) {
  benchIdleCost().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
