import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import type { AccountCommandHandler } from '../application/accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../application/downloads/download-job-commands.js';
import { TOKENS } from '../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../test/fixtures/platform/fixture-platform.js';
import { startTestService } from '../test/support/test-service.js';
import { ms, timeSequentially } from './time-sequentially.js';

const run = promisify(execFile);

interface ModeFigures {
  submit: { p50: number; p99: number };
  polling: { perSecond: number; p99: number };
  lag: { p50: number; p99: number };
}

/**
 * The embedded mode (PGlite, in-process queue) beside the server mode
 * (PostgreSQL, JetStream), measured in the same run with the same load:
 * - submit: POST /download latency with the video's metadata cached, 60
 *   requests one at a time from a separate Node process;
 * - polling: GET /download/{jobId} under wrk (16 connections, 5 s);
 * - projection lag: from an append's return to the row in `download_jobs`.
 * The server mode is the baseline of each ratio.
 */
async function main(): Promise<void> {
  if (process.argv[2] === '--submit-load') return submitLoad(process.argv[3], process.argv[4], process.argv[5]);
  const platform = await startFixturePlatform();
  try {
    const server = await measureMode(platform, false);
    const embedded = await measureMode(platform, true);
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log(
      `submit (p50/p99): server ${ms(server.submit.p50)} / ${ms(server.submit.p99)}; embedded ${ms(embedded.submit.p50)} / ${ms(embedded.submit.p99)}; ` +
        `embedded/server p50 ${ratio(embedded.submit.p50, server.submit.p50)}, p99 ${ratio(embedded.submit.p99, server.submit.p99)}`,
    );
    console.log(
      `polling: server ${server.polling.perSecond.toFixed(0)} req/s p99 ${ms(server.polling.p99)}; embedded ${embedded.polling.perSecond.toFixed(0)} req/s p99 ${ms(embedded.polling.p99)}; ` +
        `embedded/server throughput ${ratio(embedded.polling.perSecond, server.polling.perSecond)}, p99 ${ratio(embedded.polling.p99, server.polling.p99)}`,
    );
    console.log(
      `projection lag (p50/p99): server ${ms(server.lag.p50)} / ${ms(server.lag.p99)}; embedded ${ms(embedded.lag.p50)} / ${ms(embedded.lag.p99)}; ` +
        `embedded/server p50 ${ratio(embedded.lag.p50, server.lag.p50)}, p99 ${ratio(embedded.lag.p99, server.lag.p99)}`,
    );
  } finally {
    await platform.stop();
  }
}

async function measureMode(platform: FixturePlatform, embedded: boolean): Promise<ModeFigures> {
  const service = await startTestService({
    label: 'bench_modes',
    embedded,
    env: serviceEnvFor(platform),
    roles: ['api', 'projector'],
  });
  try {
    const { apiKey, accountId } = await service.createAccount({ planId: 'custom' });
    const videoUrl = platform.watchUrl(FIXTURE_VIDEOS.clip.id);

    const submitted = await run(process.execPath, [__filename, '--submit-load', service.api, apiKey, videoUrl], {
      env: process.env,
    });
    const submit = JSON.parse(submitted.stdout) as { p50: number; p99: number; jobId: string };

    await service.settle();
    const polling = await wrk(`${service.api}/download/${submit.jobId}`, apiKey);

    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const accounts = service.service.container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
    const jobs = service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
    const lags: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const jobId = `bench-lag-${i}-${Date.now()}`;
      // A pending limit of its own: the submits above already hold 61 of the API's 100.
      await accounts.handle(accountId, {
        type: 'ReserveDownload',
        data: { jobId, pendingLimit: 1000, now: new Date().toISOString() },
      });
      await jobs.handle(jobId, {
        type: 'SubmitDownload',
        data: {
          jobId,
          accountId,
          url: videoUrl,
          format: 'audio',
          startTime: null,
          endTime: null,
          language: null,
          webhookUrl: null,
          title: 't',
          duration: 6,
          maxFileSizeBytes: 1e9,
          now: new Date().toISOString(),
        },
      });
      const appended = performance.now();
      while ((await db('download_jobs').where('job_id', jobId).first()) === undefined)
        await new Promise((resolve) => setTimeout(resolve, 1));
      lags.push(performance.now() - appended);
    }
    lags.sort((a, b) => a - b);
    return { submit, polling, lag: { p50: lags[50], p99: lags[98] } };
  } finally {
    await service.stop();
  }
}

/** The separate load process for submits: one cold request, then 60 measured ones. */
async function submitLoad(api: string, apiKey: string, videoUrl: string): Promise<void> {
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  let jobId = '';
  const submitOnce = async () => {
    const response = await fetch(`${api}/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: videoUrl }),
    });
    if (response.status !== 200) throw new Error(`POST /download answered ${response.status}`);
    jobId = ((await response.json()) as { jobId: string }).jobId;
  };
  await submitOnce();
  const figures = await timeSequentially(60, submitOnce);
  process.stdout.write(JSON.stringify({ p50: figures.p50, p99: figures.p99, jobId }));
}

/** GET under wrk, a process of its own: requests per second and the 99th percentile. */
async function wrk(url: string, apiKey: string): Promise<{ perSecond: number; p99: number }> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-wrk-'));
  try {
    const script = path.join(scratch, 'auth.lua');
    await writeFile(script, `wrk.headers["Authorization"] = "Bearer ${apiKey}"\n`);
    const { stdout } = await run('wrk', ['-t2', '-c16', '-d5s', '--latency', '-s', script, url]);
    const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
    if (p99 === null || Number.isNaN(perSecond)) throw new Error(`Unexpected wrk output:\n${stdout}`);
    if (/Non-2xx/.test(stdout)) throw new Error(`wrk saw failed requests:\n${stdout}`);
    const factor = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
    return { perSecond, p99: Number(p99[1]) * factor };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
