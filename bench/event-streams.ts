import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Driver } from './driver.js';
import type { ServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { percentile } from './timed-process.js';

/** The targets of the live-status design: memory per open stream and the p99 delivery of a status change. */
const TARGET_BYTES_PER_STREAM = 50 * 1024;
const TARGET_P99_MS = 100;

/**
 * Open event streams on one API process. A separate process
 * (event-stream-load.js) opens `streams` streams spread over `jobs` jobs and
 * reports each event's arrival; this process appends one status change per
 * job (StartJob, then FailJob to end the streams) through the job's
 * commands and takes the delay from the append's return to each stream's
 * event. Memory is the service process's resident set before the streams
 * open and once they all have their first event, divided by the streams.
 */
export async function benchEventStreams(
  service: ServiceProcess,
  driver: Driver,
  url: string,
  options: { streams: number; jobs: number; label: string },
): Promise<void> {
  const { accountId, apiKey } = await driver.openAccount();
  const jobIds: string[] = [];
  for (let i = 0; i < options.jobs; i += 1) {
    const jobId = randomUUID();
    await driver.seedJob(accountId, jobId, 'IN_QUEUE', url);
    jobIds.push(jobId);
  }
  // One stream opened and ended first, so the route's code and buffers are warm before the memory baseline.
  await warmUp(service, apiKey, jobIds[0]);
  const rssBefore = await residentBytes(service.pid);

  const perJob = Math.ceil(options.streams / options.jobs);
  const load = spawn(
    process.execPath,
    [path.join(__dirname, 'event-stream-load.js'), service.api, apiKey, String(perJob), ...jobIds],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const killOnExit = () => load.kill('SIGKILL');
  process.once('exit', killOnExit);
  const arrivals = new Map<string, number[]>();
  let summary = '';
  let allOpen: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (allOpen = resolve));
  const ended = new Promise<void>((resolve) => load.once('exit', () => resolve()));
  createInterface({ input: load.stdout }).on('line', (line) => {
    const [kind, jobId, status, at] = line.split(' ');
    if (kind === 'open') allOpen();
    else if (kind === 'done') summary = line;
    else if (kind === 'event' && status === 'IN_PROGRESS')
      arrivals.set(jobId, [...(arrivals.get(jobId) ?? []), Number(at)]);
  });
  await Promise.race([
    opened,
    ended.then(() => Promise.reject(new Error(`the load process ended before every stream opened: ${summary}`))),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const rssOpen = await residentBytes(service.pid);

  const lags: number[] = [];
  const now = () => new Date().toISOString();
  for (const jobId of jobIds) {
    await driver.jobs.handle(jobId, {
      type: 'StartJob',
      data: { jobId, leaseId: 'bench-lease', messageId: 'bench', now: now() },
    });
    const appendedAt = performance.timeOrigin + performance.now();
    const deadline = Date.now() + 10_000;
    while ((arrivals.get(jobId)?.length ?? 0) < perJob && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    for (const at of arrivals.get(jobId) ?? []) lags.push(at - appendedAt);
    // Spaced, so each change is measured on its own rather than queued behind the last.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const missing = perJob * jobIds.length - lags.length;
  for (const jobId of jobIds)
    await driver.jobs.handle(jobId, {
      type: 'FailJob',
      data: { jobId, errorCode: null, reason: 'bench over', now: now(), leaseId: 'bench-lease' },
    });
  await ended;
  process.off('exit', killOnExit);

  const streams = perJob * jobIds.length;
  const perStream = (rssOpen - rssBefore) / streams;
  const p99 = percentile(lags, 0.99);
  console.log(
    `event streams${options.label} (${streams} streams on ${jobIds.length} jobs, one API process${QUICK ? ', quick' : ''}): ` +
      `memory per stream ${(perStream / 1024).toFixed(1)} KiB (RSS ${(rssBefore / 2 ** 20).toFixed(1)} -> ${(rssOpen / 2 ** 20).toFixed(1)} MiB; target ${TARGET_BYTES_PER_STREAM / 1024} KiB, ratio ${(perStream / TARGET_BYTES_PER_STREAM).toFixed(2)}); ` +
      `status change to stream p50 ${percentile(lags, 0.5).toFixed(1)} ms p99 ${p99.toFixed(1)} ms max ${Math.max(...lags).toFixed(1)} ms ` +
      `(target p99 ${TARGET_P99_MS} ms, ratio ${(p99 / TARGET_P99_MS).toFixed(2)})${missing > 0 ? `; ${missing} events missing` : ''}; load: ${summary}`,
  );
}

async function warmUp(service: ServiceProcess, apiKey: string, jobId: string): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${service.api}/download/${jobId}/events`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    signal: controller.signal,
  });
  if (response.status !== 200)
    throw new Error(`the event stream answered ${response.status}: ${await response.text()}`);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => undefined);
}

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (match === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
