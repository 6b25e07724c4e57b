import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { Knex } from 'knex';
import { Driver, waitFor } from './driver.js';
import { type ServiceProcess, startRoleProcess, startServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { cpuSeconds, ownCpuSeconds, percentile, processTreeCpuSeconds } from './timed-process.js';

const SPEED_UP_TARGET = 1.7;

interface Round {
  ms: number;
  /** The API and projector process, the worker processes and all their children, over the round's wall time. */
  cpuPercent: number;
  /** CPU seconds per download: the API and projector process (with its helpers), the worker processes alone, their children (yt-dlp, ffmpeg, ffprobe, helpers). */
  cpuPerDownload: { service: number; workers: number; children: number };
  /** The PostgreSQL backends serving the service's database, the same way. */
  postgresPercent: number;
  /** This process (the fixture platform serving the media, the polling), the same way. */
  benchPercent: number;
  /** Every core of the machine busy, whoever used it, as % of all of them. */
  machineBusyPercent: number;
  /** From starting the worker processes to the first DownloadStarted. */
  firstStartMs: number;
  /** DownloadStarted to DownloadCompleted of one job, median of the round. */
  runMs: number;
  /** From the first DownloadStarted to the last DownloadCompleted: the backlog without the workers' start-up. */
  workingMs: number;
}

/**
 * A backlog of `BENCH_BACKLOG_JOBS` (60; 10 with --quick) audio downloads of
 * the short clip, submitted while no worker process runs, then worked off by
 * two worker processes (`--role worker`) against one, each with the same
 * download concurrency (`WORKER_CONCURRENCY`, the service's default unless
 * `BENCH_BACKLOG_CONCURRENCY` sets it). One API and projector process serves
 * both. Rounds alternate, baseline first, each on a fresh backlog; a round
 * runs from starting the workers to the read model showing every job
 * COMPLETED, so the workers' start-up counts.
 */
export async function benchWorkerBacklog(env: Record<string, string>, videoUrl: string): Promise<void> {
  const count = Number(process.env.BENCH_BACKLOG_JOBS ?? (QUICK ? 10 : 60));
  const rounds = QUICK ? 1 : Math.max(2, Number(process.env.BENCH_BACKLOG_ROUNDS ?? 3));
  const concurrency = process.env.BENCH_BACKLOG_CONCURRENCY;
  const service = await startServiceProcess({
    label: 'bench_backlog',
    roles: ['api', 'projector'],
    env: {
      ...env,
      ...(concurrency === undefined ? {} : { WORKER_CONCURRENCY: concurrency }),
      DOWNLOAD_RETRY_BASE_MS: '0',
      RATE_LIMIT_KEY_PER_SECOND: '0',
      RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
    },
  });
  const driver = await Driver.open(service);
  try {
    // Not counted: the fixture's media and yt-dlp's files are cold the first time.
    await backlogRound(service, driver, videoUrl, 2, 1);
    const one: Round[] = [];
    const two: Round[] = [];
    for (let round = 0; round < rounds; round += 1) {
      one.push(await backlogRound(service, driver, videoUrl, count, 1));
      two.push(await backlogRound(service, driver, videoUrl, count, 2));
    }
    report(count, service.config.jobs.workerConcurrency, one, two);
  } finally {
    await driver.close();
    await service.stop();
  }
}

/** The line every bench prints (medians, the ratio), then what bounds it: where each side's time and CPU went. */
function report(count: number, concurrency: number, one: Round[], two: Round[]): void {
  const median = (side: Round[], pick: (round: Round) => number) => percentile(side.map(pick), 0.5);
  const seconds = (side: Round[]) => (median(side, (round) => round.ms) / 1000).toFixed(1);
  const cpu = (side: Round[]) => median(side, (round) => round.cpuPercent).toFixed(0);
  const speedUp = median(one, (round) => round.ms) / median(two, (round) => round.ms);
  console.log(
    `worker backlog (${count} audio downloads queued, 1 vs 2 worker processes, concurrency ${concurrency} each, median of ${one.length}): ` +
      `one worker ${seconds(one)} s (CPU ${cpu(one)}% of a core), two workers ${seconds(two)} s (CPU ${cpu(two)}%); ` +
      `speed-up ${speedUp.toFixed(2)} (target ${SPEED_UP_TARGET})`,
  );
  const perDownload = (side: Round[], pick: (cpu: Round['cpuPerDownload']) => number) =>
    median(side, (round) => pick(round.cpuPerDownload)).toFixed(2);
  const detail = (side: Round[]) =>
    `rounds ${side.map((round) => (round.ms / 1000).toFixed(1)).join(', ')} s; ` +
    `first download started after ${median(side, (round) => round.firstStartMs).toFixed(0)} ms, ` +
    `a download's run p50 ${median(side, (round) => round.runMs).toFixed(0)} ms, ` +
    `CPU per download ${perDownload(side, (cpu) => cpu.service + cpu.workers + cpu.children)} s ` +
    `(API and projector ${perDownload(side, (cpu) => cpu.service)}, worker processes ${perDownload(side, (cpu) => cpu.workers)}, ` +
    `their yt-dlp, ffmpeg and helpers ${perDownload(side, (cpu) => cpu.children)}), ` +
    `PostgreSQL backends ${median(side, (round) => round.postgresPercent).toFixed(0)}%, ` +
    `the bench process (fixture platform) ${median(side, (round) => round.benchPercent).toFixed(0)}%, ` +
    `machine busy ${median(side, (round) => round.machineBusyPercent).toFixed(0)}% of ${cpus().length} cores`;
  console.log(`  one worker: ${detail(one)}`);
  console.log(`  two workers: ${detail(two)}`);
  const working = (side: Round[]) => median(side, (round) => round.workingMs);
  console.log(
    `  first start to last completion: one worker ${(working(one) / 1000).toFixed(1)} s, two workers ${(working(two) / 1000).toFixed(1)} s; ` +
      `speed-up without the start-up ${(working(one) / working(two)).toFixed(2)}`,
  );
}

/** Queues `count` downloads with no worker running, then starts `workers` worker processes and times the backlog. */
async function backlogRound(
  service: ServiceProcess,
  driver: Driver,
  videoUrl: string,
  count: number,
  workers: number,
): Promise<Round> {
  const { apiKey } = await driver.openAccount();
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const jobIds = await Promise.all(Array.from({ length: count }, () => submit(service, headers, videoUrl)));
  await waitFor(async () => (await statusCounts(driver.db, jobIds)).IN_QUEUE === count, 120_000);

  const serviceCpu = await processTreeCpuSeconds(service.pid);
  const postgresCpu = await backendCpuSeconds(driver.db);
  const benchCpu = benchCpuSeconds();
  const machine = machineTicks();
  const startedAt = Date.now();
  const started = performance.now();
  const processes = Array.from({ length: workers }, (_, index) =>
    startRoleProcess(service, ['worker'], `worker-${index}`),
  );
  let round: Omit<Round, 'firstStartMs' | 'runMs' | 'workingMs'>;
  try {
    for (;;) {
      for (const worker of processes) worker.assertRunning();
      const counts = await statusCounts(driver.db, jobIds);
      if ((counts.FAILED ?? 0) > 0) throw new Error(`${counts.FAILED} bench job(s) of the backlog failed`);
      if (counts.COMPLETED === count) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ms = performance.now() - started;
    // Every process of the deployment, read while the workers still run: their children are counted too.
    const split = { service: (await processTreeCpuSeconds(service.pid)) - serviceCpu, workers: 0, children: 0 };
    for (const worker of processes) {
      const own = ownCpuSeconds(worker.pid);
      split.workers += own;
      split.children += (await processTreeCpuSeconds(worker.pid)) - own;
    }
    const cpu = split.service + split.workers + split.children;
    const postgres = spentSince(postgresCpu, await backendCpuSeconds(driver.db));
    const bench = benchCpuSeconds() - benchCpu;
    const { busy, all } = machineTicks();
    const share = (seconds: number) => (100 * seconds) / (ms / 1000);
    round = {
      ms,
      cpuPercent: share(cpu),
      cpuPerDownload: {
        service: split.service / count,
        workers: split.workers / count,
        children: split.children / count,
      },
      postgresPercent: share(postgres),
      benchPercent: share(bench),
      machineBusyPercent: (100 * (busy - machine.busy)) / (all - machine.all),
    };
  } finally {
    await Promise.all(processes.map((worker) => worker.stop()));
  }
  await assertCompletedThroughApi(service, headers, jobIds);
  return { ...round, ...(await jobTimes(driver.db, jobIds, startedAt)) };
}

async function submit(service: ServiceProcess, headers: Record<string, string>, videoUrl: string): Promise<string> {
  const answer = await fetch(`${service.api}/download`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: videoUrl, format: 'audio' }),
  });
  if (answer.status !== 200) throw new Error(`a bench submission answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { jobId: string }).jobId;
}

/** Jobs by status in the read model: one query, so the bench's polling costs the machine next to nothing. */
async function statusCounts(db: Knex, jobIds: string[]): Promise<Record<string, number>> {
  const rows = (await db('download_jobs')
    .whereIn('job_id', jobIds)
    .select('status')
    .count('* as jobs')
    .groupBy('status')) as {
    status: string;
    jobs: string | number;
  }[];
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.jobs)]));
}

/** What a client sees: every job answers 200 and COMPLETED, or the round's figure is refused. */
async function assertCompletedThroughApi(
  service: ServiceProcess,
  headers: Record<string, string>,
  jobIds: string[],
): Promise<void> {
  for (const jobId of jobIds) {
    const poll = await fetch(`${service.api}/download/${jobId}`, { headers });
    if (poll.status !== 200) throw new Error(`a poll of the bench job ${jobId} answered ${poll.status}`);
    const { status } = (await poll.json()) as { status: string };
    if (status !== 'COMPLETED') throw new Error(`the bench job ${jobId} is ${status} through the API`);
  }
}

/** The first start after the workers were started, and the median run, from the times the read model holds. */
async function jobTimes(
  db: Knex,
  jobIds: string[],
  startedAt: number,
): Promise<Pick<Round, 'firstStartMs' | 'runMs' | 'workingMs'>> {
  const rows = (await db('download_jobs').whereIn('job_id', jobIds).select('started_at', 'completed_at')) as {
    started_at: Date;
    completed_at: Date;
  }[];
  const starts = rows.map((row) => new Date(row.started_at).getTime());
  const runs = rows.map((row) => new Date(row.completed_at).getTime() - new Date(row.started_at).getTime());
  const lastCompleted = Math.max(...rows.map((row) => new Date(row.completed_at).getTime()));
  return {
    firstStartMs: Math.min(...starts) - startedAt,
    runMs: percentile(runs, 0.5),
    workingMs: lastCompleted - Math.min(...starts),
  };
}

/** CPU seconds of each PostgreSQL backend connected to the service's database (the server runs on this machine). */
async function backendCpuSeconds(db: Knex): Promise<Map<number, number>> {
  const { rows } = (await db.raw('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')) as {
    rows: { pid: number }[];
  };
  const seconds = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      seconds.set(pid, cpuSeconds(pid));
    } catch {
      // Gone since the query.
    }
  }
  return seconds;
}

/** A backend that connected in between counts whole; one that disconnected in between is lost. */
function spentSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** This process's own CPU seconds: its children (the worker processes, once stopped) are not in them. */
function benchCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Busy and all ticks of every core since boot, from the first line of /proc/stat (idle and iowait are not busy). */
function machineTicks(): { busy: number; all: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const all = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: all - ticks[3] - ticks[4], all };
}
