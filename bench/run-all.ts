import 'reflect-metadata';
import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { Knex } from 'knex';
import Koa from 'koa';
import type { AccountCommandHandler } from '../application/accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../application/downloads/download-job-commands.js';
import type { DownloadLinks } from '../application/ports/download-links.js';
import type { FileStore } from '../application/ports/file-store.js';
import { TOKENS } from '../infrastructure/container.js';
import { YtDlpExtractor } from '../infrastructure/extractor/yt-dlp-extractor.js';
import { FIXTURE_VIDEOS, serviceEnvFor, startFixturePlatform } from '../test/fixtures/platform/fixture-platform.js';
import { startTestService } from '../test/support/test-service.js';
import { measure, ms } from './measure.js';

/**
 * Prints each figure next to a baseline measured in the same run, as a ratio:
 * - polling: GET /download/{jobId} against a bare Koa + pg primary-key lookup of the same row;
 * - projection lag: append to visible in the read model;
 * - submit overhead: POST /download latency minus the extractor's own metadata time;
 * - file serving: memory growth while a large file streams, against the file's size.
 */
async function main(): Promise<void> {
  const platform = await startFixturePlatform();
  const service = await startTestService({
    label: 'bench',
    env: serviceEnvFor(platform),
    roles: ['api', 'projector'],
  });
  const db = service.service.container.resolve<Knex>(TOKENS.database);
  try {
    const { apiKey } = await service.createAccount({ planId: 'custom' });
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };

    // Submit overhead.
    const extractor = new YtDlpExtractor({ ytDlpPath: service.config.ytDlpPath, ffmpegPath: service.config.ffmpegPath, ffprobePath: service.config.ffprobePath, pythonPath: platform.pluginPath });
    const probe = await measure(10, 1, async () => void (await extractor.probe(url)));
    let jobId = '';
    const submitOnce = async () => {
      const response = await fetch(`${service.api}/download`, { method: 'POST', headers, body: JSON.stringify({ url }) });
      jobId = ((await response.json()) as { jobId: string }).jobId;
    };
    const cold = await measure(1, 1, submitOnce);
    // With the video's metadata cached, a submit's latency is the service's own overhead.
    const warm = await measure(50, 1, submitOnce);
    console.log(
      `submit: extractor metadata p50 ${ms(probe.p50)}; first POST /download ${ms(cold.p50)}; ` +
        `service overhead beyond the lookup p50 ${ms(warm.p50)} p99 ${ms(warm.p99)} (${((warm.p50 / probe.p50) * 100).toFixed(1)}% of the lookup)`,
    );

    // Polling against a bare endpoint over the same table and pool size.
    await service.settle();
    const bare = new Koa();
    const router = new Router();
    router.get('/download/:jobId', async (ctx) => {
      ctx.body = await db('download_jobs').where('job_id', ctx.params.jobId).first();
    });
    bare.use(router.routes());
    const server: Server = await new Promise((resolve) => {
      const s = bare.listen(0, '127.0.0.1', () => resolve(s));
    });
    const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/download/${jobId}`;
    const pollUrl = `${service.api}/download/${jobId}`;
    await measure(300, 8, async () => void (await (await fetch(bareUrl)).arrayBuffer()));
    await measure(300, 8, async () => void (await (await fetch(pollUrl, { headers })).arrayBuffer()));
    const baseline = await measure(3000, 16, async () => void (await (await fetch(bareUrl)).arrayBuffer()));
    const polling = await measure(3000, 16, async () => void (await (await fetch(pollUrl, { headers })).arrayBuffer()));
    server.close();
    console.log(`polling: ${polling.perSecond.toFixed(0)} req/s p99 ${ms(polling.p99)}; bare Koa+pg ${baseline.perSecond.toFixed(0)} req/s p99 ${ms(baseline.p99)}; throughput ratio ${(polling.perSecond / baseline.perSecond).toFixed(2)}, p99 ratio ${(polling.p99 / baseline.p99).toFixed(2)}`);

    // Projection lag: from the append's return to the row being visible.
    const accounts = service.service.container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
    const jobs = service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
    const { accountId } = await service.createAccount({ planId: 'custom' });
    const lags: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const id = `bench-${i}-${Date.now()}`;
      await accounts.handle(accountId, { type: 'ReserveDownload', data: { jobId: id, pendingLimit: 1000, now: new Date().toISOString() } });
      await jobs.handle(id, {
        type: 'SubmitDownload',
        data: { jobId: id, accountId, url, format: 'audio', startTime: null, endTime: null, language: null, webhookUrl: null, title: 't', duration: 6, maxFileSizeBytes: 1e9, now: new Date().toISOString() },
      });
      const appended = performance.now();
      while ((await db('download_jobs').where('job_id', id).first()) === undefined) await new Promise((resolve) => setImmediate(resolve));
      lags.push(performance.now() - appended);
    }
    lags.sort((a, b) => a - b);
    const directRead = await measure(200, 1, async () => void (await db('download_jobs').where('job_id', jobId).first()));
    console.log(`projection lag: p50 ${ms(lags[100])}, p99 ${ms(lags[197])}; one read-model lookup p50 ${ms(directRead.p50)} (lag p50 = ${(lags[100] / directRead.p50).toFixed(1)} lookups)`);

    // Serving a file: memory growth while a large file streams out, against the file's size.
    const files = service.service.container.resolve<FileStore>(TOKENS.fileStore);
    const links = service.service.container.resolve<DownloadLinks>(TOKENS.downloadLinks);
    const scratch = await mkdtemp(path.join(tmpdir(), 'bench-file-'));
    const big = path.join(scratch, 'big.bin');
    const size = 512 * 1024 * 1024;
    await writeFile(big, Buffer.alloc(0));
    await truncate(big, size);
    await files.put('bench/big.bin', big);
    const link = links.linkFor({ jobId: 'bench', fileKey: 'bench/big.bin', filename: 'big.bin' }, new Date());
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const response = await fetch(link);
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `file serving: ${(received / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(2)} s; peak RSS growth ${((peak - rssBefore) / 2 ** 20).toFixed(1)} MiB = ${(((peak - rssBefore) / size) * 100).toFixed(2)}% of the file (server and client in one process)`,
    );
    await files.remove('bench/big.bin');
  } finally {
    await service.stop();
    await platform.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
