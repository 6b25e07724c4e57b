import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import type { Driver } from './driver.js';
import type { ServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { percentile } from './timed-process.js';

const RATE_PER_SECOND = Number(process.env.BENCH_LAG_RATE ?? 500);
/** Appends of the first seconds (connections opening, the projector's first batches) are not counted. */
const WARM_UP_SECONDS = 2;

/**
 * Projection lag under a sustained 500 appends/s. A separate process
 * (append-load.js) appends new jobs on a fixed schedule and reports each
 * append's return; the service process's projector writes the rows; this
 * process looks for the outstanding rows in `download_jobs` in a loop, one
 * query at a time, and takes the lag from the append's return to the first
 * look that finds the row. The baseline is one such look.
 */
export async function benchProjectionLag(service: ServiceProcess, driver: Driver): Promise<void> {
  const seconds = Number(process.env.BENCH_LAG_SECONDS ?? (QUICK ? 5 : 20));
  const { accountId } = await driver.openAccount();
  const watcher = new pg.Client({ connectionString: service.config.storage.databaseUrl });
  await watcher.connect();
  const outstanding = new Map<string, number>();
  const lags: number[] = [];
  const lookups: number[] = [];
  let summary = '';
  const countFrom = performance.timeOrigin + performance.now() + WARM_UP_SECONDS * 1000;
  const load = spawn(
    process.execPath,
    [
      path.join(__dirname, 'append-load.js'),
      service.config.storage.databaseUrl,
      accountId,
      String(RATE_PER_SECOND),
      String(seconds + WARM_UP_SECONDS),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const killOnExit = () => load.kill('SIGKILL');
  process.once('exit', killOnExit);
  let appending = true;
  const loadEnded = new Promise<void>((resolve) => load.once('exit', () => resolve()));
  createInterface({ input: load.stdout }).on('line', (line) => {
    const [kind, first, second] = line.split(' ');
    if (kind === 'appended') outstanding.set(first, Number(second));
    else if (kind === 'done') summary = line;
  });
  void loadEnded.then(() => (appending = false));
  while (appending || outstanding.size > 0) {
    const ids = [...outstanding.keys()];
    if (ids.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    const started = performance.now();
    const { rows } = await watcher.query<{ job_id: string }>({
      name: 'lag-watch',
      text: 'SELECT job_id FROM download_jobs WHERE job_id = ANY($1)',
      values: [ids],
    });
    const now = performance.timeOrigin + performance.now();
    lookups.push(performance.now() - started);
    for (const { job_id: jobId } of rows) {
      const appendedAt = outstanding.get(jobId) as number;
      if (appendedAt >= countFrom) lags.push(now - appendedAt);
      outstanding.delete(jobId);
    }
  }
  process.off('exit', killOnExit);
  await watcher.end();
  const [, achieved, failures, ...failure] = summary.split(' ');
  const lookup = percentile(lookups, 0.5);
  console.log(
    `projection lag at ${Number(achieved).toFixed(0)} appends/s for ${seconds} s after ${WARM_UP_SECONDS} s of warm-up (${lags.length} appends${Number(failures) > 0 ? `, ${failures} failed: ${failure.join(' ')}` : ''}): ` +
      `p50 ${percentile(lags, 0.5).toFixed(2)} ms, p99 ${percentile(lags, 0.99).toFixed(2)} ms; one read-model lookup p50 ${lookup.toFixed(2)} ms ` +
      `(lag p50 = ${(percentile(lags, 0.5) / lookup).toFixed(1)} lookups, p99 = ${(percentile(lags, 0.99) / lookup).toFixed(1)})`,
  );
}
