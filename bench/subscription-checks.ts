import pg from 'pg';
import { Driver } from './driver.js';
import { type RoleProcess, type ServiceProcess, startRoleProcess, startServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { cpuSeconds, processTreeCpuSeconds, timedProcess } from './timed-process.js';
import { handRunOptions } from './hand-run-options.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Creations at once: they all hold a slot in the one account's roster stream, so more only conflict and retry. */
const CREATING_AT_ONCE = 4;
const BASELINE_LISTINGS = QUICK ? 5 : 20;
const IDLE_MS = 10_000;

interface DatabaseCounters {
  transactions: number;
  rowsWritten: number;
  blocksTouched: number;
}

/**
 * `BENCH_SUBSCRIPTIONS` (1,000; 100 with --quick) hourly subscriptions of one
 * account to the fixture channel, at the default settings, created with the
 * api and projector process alone; then one worker process (the scheduler)
 * starts, and all N first checks, due at once, run back to back: their wall
 * time, the processes' CPU and PostgreSQL's work per check, against the same
 * listing run by hand with yt-dlp. Then the spread of their regular checks over the
 * hour that follows: the busiest minute against the average.
 */
export async function benchSubscriptionChecks(env: Record<string, string>, channelUrl: string): Promise<void> {
  const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? (QUICK ? 100 : 1_000));
  const service = await startServiceProcess({
    label: 'bench_subscriptions',
    roles: ['api', 'projector'],
    env: { ...env, RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_ACCOUNT_PER_SECOND: '0' },
  });
  const driver = await Driver.open(service);
  const db = new pg.Client({ connectionString: service.database.url });
  await db.connect();
  let worker: RoleProcess | null = null;
  try {
    const { apiKey } = await driver.openAccount('custom', ['channel_list']);
    const call = client(service.api, apiKey);
    const creating = performance.now();
    await createAll(call, channelUrl, count);
    const creationMs = performance.now() - creating;
    // The worker (the scheduler's one process) starts now: the checks alone are measured, all due at once.
    await untilCreatedRows(db, count);
    const cpuBefore = await processTreeCpuSeconds(service.pid);
    const dbBefore = await counters(db);
    const started = performance.now();
    worker = startRoleProcess(service, ['worker'], 'worker');
    const subscriptions = await untilAllChecked(db, call, worker);
    const ms = performance.now() - started;
    const cpuTotal = async () =>
      (await processTreeCpuSeconds(service.pid)) + (await processTreeCpuSeconds(worker?.pid ?? 0));
    const cpuAfter = await cpuTotal();
    const dbAfter = await counters(db);
    // What the processes cost with nothing due (their loops and pollers), taken out of the checks' share, once the
    // projections and processes have caught up with the last checks.
    await sleep(IDLE_MS);
    const idleFromCpu = await cpuTotal();
    const idleFromDb = await counters(db);
    await sleep(IDLE_MS);
    const idleCpu = ((await cpuTotal()) - idleFromCpu) / IDLE_MS;
    const idleDb = await counters(db);
    const cpu = cpuAfter - cpuBefore - idleCpu * ms;
    const idle = (field: keyof DatabaseCounters) => ((idleDb[field] - idleFromDb[field]) / IDLE_MS) * ms;
    const per = (field: keyof DatabaseCounters) =>
      ((dbAfter[field] - dbBefore[field] - idle(field)) / count).toFixed(1);
    const byHand = await listByHand(service, channelUrl);
    console.log(
      `${count} subscriptions created in ${(creationMs / 1000).toFixed(1)} s (${CREATING_AT_ONCE} at once); their first checks, back to back by one worker: ${(ms / 1000).toFixed(1)} s (${(ms / count).toFixed(0)} ms a check, the worker's start included), ` +
        `CPU of the service's processes ${(cpu / count).toFixed(3)} s a check (yt-dlp included); PostgreSQL a check: ${per('transactions')} transactions, ` +
        `${per('rowsWritten')} rows written, ${per('blocksTouched')} blocks touched (each net of what the processes cost idle: ` +
        `${((1000 * (idleDb.transactions - idleFromDb.transactions)) / IDLE_MS).toFixed(0)} transactions and ${((1000 * idleCpu) / 1).toFixed(3)} CPU seconds a second); ` +
        `the listing by hand ${byHand.ms.toFixed(0)} ms, CPU ${byHand.cpuSeconds.toFixed(3)} s; ` +
        `ratio a check to the listing by hand: time ${(ms / count / byHand.ms).toFixed(2)}, CPU ${(cpu / count / byHand.cpuSeconds).toFixed(2)}`,
    );
    console.log(spread(subscriptions));
  } finally {
    await worker?.stop();
    await db.end();
    await driver.close();
    await service.stop();
  }
}

/**
 * Where in the hour the regular checks fall, by minute of the hour: each subscription checks at the same point of
 * every hour, so this is the load of every hour from now on (the first, back-to-back checks left aside). The busiest
 * minute's count against the average (count / 60).
 */
function spread(subscriptions: Array<{ nextCheckAt: string | null }>): string {
  const times = subscriptions.flatMap((item) => (item.nextCheckAt === null ? [] : [Date.parse(item.nextCheckAt)]));
  const minutes = new Array<number>(60).fill(0);
  for (const time of times) minutes[Math.floor((time % HOUR_MS) / MINUTE_MS)] += 1;
  const busiest = Math.max(...minutes);
  const average = times.length / 60;
  return (
    `their regular checks by minute of the hour: ${times.length} scheduled, busiest minute ${busiest} against an average of ${average.toFixed(1)} ` +
    `(${(busiest / average).toFixed(2)}x), quietest ${Math.min(...minutes)}`
  );
}

type Call = (method: string, path: string, expected: number, body?: unknown) => Promise<any>;

/** The bench's requests; an answer other than the expected one stops the bench rather than print a figure. */
function client(api: string, apiKey: string): Call {
  return async (method, path, expected, body) => {
    const response = await fetch(api + path, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text === '' ? null : JSON.parse(text);
  };
}

async function createAll(call: Call, channelUrl: string, count: number): Promise<void> {
  let next = 0;
  const creator = async () => {
    while (next < count) {
      next += 1;
      await call('POST', '/subscriptions', 201, { channelUrl, format: 'audio', checkEveryMinutes: 60 });
    }
  };
  await Promise.all(Array.from({ length: CREATING_AT_ONCE }, creator));
}

/**
 * Waits, reading the read model from this process (so the service does not
 * pay for the bench's polls), until every subscription has a completed first
 * check; a failed check stops the bench. Then every subscription, as the API
 * lists it.
 */
async function untilAllChecked(
  db: pg.Client,
  call: Call,
  worker: RoleProcess,
): Promise<Array<{ nextCheckAt: string | null }>> {
  for (;;) {
    worker.assertRunning();
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE state::jsonb -> 'lastCheck' <> 'null'::jsonb) AS checked,
              min(state::jsonb #>> '{lastCheck,failure}') AS failure, count(*) AS total
         FROM subscriptions`,
    );
    if (rows[0].failure !== null) throw new Error(`a check failed: ${rows[0].failure}`);
    if (Number(rows[0].checked) === Number(rows[0].total)) break;
    await sleep(1_000);
  }
  const all: Array<{ nextCheckAt: string | null }> = [];
  for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
    const page: any = await call('GET', `/subscriptions?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`, 200);
    all.push(...page.subscriptions);
    cursor = page.nextCursor;
  }
  return all;
}

/** Until the read model holds every subscription created: the scheduler finds due checks there. */
async function untilCreatedRows(db: pg.Client, count: number): Promise<void> {
  while (Number((await db.query('SELECT count(*) AS total FROM subscriptions')).rows[0].total) < count)
    await sleep(200);
}

async function counters(db: pg.Client): Promise<DatabaseCounters> {
  const { rows } = await db.query(
    `SELECT xact_commit + xact_rollback AS transactions, tup_inserted + tup_updated + tup_deleted AS rows_written,
            blks_read + blks_hit AS blocks FROM pg_stat_database WHERE datname = current_database()`,
  );
  return {
    transactions: Number(rows[0].transactions),
    rowsWritten: Number(rows[0].rows_written),
    blocksTouched: Number(rows[0].blocks),
  };
}

/** The baseline: the listing a check makes (its 30 newest, flat), by hand with the service's yt-dlp, one after another. */
async function listByHand(service: ServiceProcess, channelUrl: string): Promise<{ ms: number; cpuSeconds: number }> {
  const env = {
    ...process.env,
    PYTHONPATH: [service.env.YT_DLP_PYTHONPATH, process.env.PYTHONPATH].filter(Boolean).join(':'),
  };
  const args = [
    ...handRunOptions(service.config.extractor),
    ...['--flat-playlist', '-J', '--playlist-end', '30', channelUrl],
  ];
  const cpuBefore = cpuSeconds('self');
  const started = performance.now();
  for (let index = 0; index < BASELINE_LISTINGS; index += 1)
    await timedProcess(service.config.extractor.ytDlpPath, args, env);
  return {
    ms: (performance.now() - started) / BASELINE_LISTINGS,
    cpuSeconds: (cpuSeconds('self') - cpuBefore) / BASELINE_LISTINGS,
  };
}
