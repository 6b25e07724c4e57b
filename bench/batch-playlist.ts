import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDownloadArguments } from '../infrastructure/extractor/build-download-arguments.js';
import { Driver } from './driver.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { cpuSeconds, processTreeCpuSeconds, timedProcess } from './timed-process.js';
import { handRunOptions } from './hand-run-options.js';

/** The fixture platform's URLs the bench needs: a playlist of n copies of the clip, and a copy's watch page. */
export interface CopiesOnPlatform {
  playlistUrl(count: number): string;
  /** The copy numbered `number` (1 to 500). */
  videoUrl(number: number): string;
}

interface Side {
  ms: number;
  cpuSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `BENCH_BATCH_VIDEOS` (100; 10 with --quick) copies of the short clip as one
 * playlist batch (`POST /download-batch`, audio), from the request to the
 * batch showing every video completed, in one service process at its default
 * settings (api, projector and worker; the default `WORKER_CONCURRENCY`);
 * against the same number of single submissions of other copies (the same
 * media, videos the service has not seen) submitted together to the same
 * process, and the same number of hand-run yt-dlp commands in sequence. CPU of
 * each side over its wall time.
 */
export async function benchBatchPlaylist(env: Record<string, string>, copies: CopiesOnPlatform): Promise<void> {
  const count = Number(process.env.BENCH_BATCH_VIDEOS ?? (QUICK ? 10 : 100));
  const service = await startServiceProcess({
    label: 'bench_batch',
    roles: ['api', 'projector', 'worker'],
    // Request limits off only: the bench polls and submits faster than one client is allowed to.
    env: { ...env, RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_ACCOUNT_PER_SECOND: '0' },
  });
  const driver = await Driver.open(service);
  try {
    const { apiKey } = await driver.openAccount('custom', ['channel_list']);
    const client = new BenchClient(service.api, apiKey);
    // One first, so no side pays for a cold cache of the fixture's media, and the fork server is up.
    await client.untilCompleted([await client.submit(copies.videoUrl(2 * count + 1))]);
    const batch = await measure(service, async () => {
      await client.untilBatchCompleted(await client.submitBatch(copies.playlistUrl(count), count), count);
    });
    const singleUrls = Array.from({ length: count }, (_, index) => copies.videoUrl(count + index + 1));
    const singles = await measure(service, async () => {
      await client.untilCompleted(await Promise.all(singleUrls.map((url) => client.submit(url))));
    });
    const byHand = await runByHand(env, service, copies.videoUrl(1), count);
    const share = (side: Side) =>
      `CPU ${side.cpuSeconds.toFixed(1)} s (${((100 * side.cpuSeconds) / (side.ms / 1000)).toFixed(0)}% of a core)`;
    console.log(
      `batch of a ${count}-video playlist (audio, ${service.config.jobs.workerConcurrency} at once): every video COMPLETED in ${(batch.ms / 1000).toFixed(1)} s, ${share(batch)}; ` +
        `${count} single submissions together ${(singles.ms / 1000).toFixed(1)} s, ${share(singles)} (${client.busyAnswers} answered 429 and sent again after Retry-After); ` +
        `${count} yt-dlp commands one after another ${(byHand.ms / 1000).toFixed(1)} s, ${share(byHand)}; ` +
        `ratio to the commands ${(batch.ms / byHand.ms).toFixed(2)} (target < 0.25), ` +
        `per-video time against single submissions ${(batch.ms / singles.ms).toFixed(2)} (target <= 1.1)`,
    );
  } finally {
    await driver.close();
    await service.stop();
  }
}

async function measure(service: ServiceProcess, run: () => Promise<void>): Promise<Side> {
  const cpuBefore = await processTreeCpuSeconds(service.pid);
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  return { ms, cpuSeconds: (await processTreeCpuSeconds(service.pid)) - cpuBefore };
}

/** The baseline: the service's own download command, by hand, one after another; a failed one stops the bench. */
async function runByHand(env: Record<string, string>, service: ServiceProcess, url: string, count: number) {
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-batch-'));
  const ytDlpEnv = {
    ...process.env,
    PYTHONPATH: [env.YT_DLP_PYTHONPATH, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
  };
  try {
    const cpuBefore = cpuSeconds('self');
    const started = performance.now();
    for (let index = 0; index < count; index += 1) {
      const outputTemplate = path.join(scratch, String(index), 'media.%(ext)s');
      const args = [
        ...handRunOptions(service.config.extractor),
        ...buildDownloadArguments({ url, format: 'audio', outputTemplate }),
      ];
      await timedProcess(service.config.extractor.ytDlpPath, args, ytDlpEnv);
    }
    return { ms: performance.now() - started, cpuSeconds: cpuSeconds('self') - cpuBefore };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The bench's requests; any answer but the expected one stops the bench rather than print a ratio. */
class BenchClient {
  constructor(
    private readonly api: string,
    apiKey: string,
    private readonly headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
  ) {}

  /** Submissions answered 429 (too many of the account's waiting for their lookup), each tried again as a client would. */
  busyAnswers = 0;

  /** As a client does: after a 429 it waits the `Retry-After` it was given and submits again. */
  async submit(url: string): Promise<string> {
    for (;;) {
      const answer = await this.send('POST', '/download', { url, format: 'audio' });
      if (answer.status === 429) {
        this.busyAnswers += 1;
        await sleep(1000 * Number(answer.headers.get('retry-after') ?? 1));
        continue;
      }
      return String((await this.expect(answer, 200, '/download')).jobId);
    }
  }

  async submitBatch(playlistUrl: string, maxVideos: number): Promise<string> {
    const body = await this.call('POST', '/download-batch', 202, { playlistUrl, maxVideos, format: 'audio' });
    return String(body.batchId);
  }

  async untilCompleted(jobIds: string[]): Promise<void> {
    let pending = jobIds;
    while (pending.length > 0) {
      const statuses = await Promise.all(pending.map((id) => this.call('GET', `/download/${id}`, 200)));
      const failed = statuses.find((job) => job.status === 'FAILED');
      if (failed !== undefined) throw new Error(`the bench job ${String(failed.jobId)} failed`);
      pending = pending.filter((_, index) => statuses[index].status !== 'COMPLETED');
      if (pending.length > 0) await sleep(100);
    }
  }

  async untilBatchCompleted(batchId: string, count: number): Promise<void> {
    for (;;) {
      const batch = await this.call('GET', `/download-batch/${batchId}?limit=1`, 200);
      const counts = batch.counts as Record<string, number>;
      if (counts.completed === count) return;
      if (!['pending', 'running'].includes(String(batch.status)) || counts.failed > 0 || counts.refused > 0)
        throw new Error(`the bench batch ended ${String(batch.status)}: ${JSON.stringify(counts)}`);
      await sleep(100);
    }
  }

  private async call(method: string, route: string, expected: number, json?: object) {
    return this.expect(await this.send(method, route, json), expected, route);
  }

  private send(method: string, route: string, json?: object): Promise<Response> {
    const body = json === undefined ? {} : { body: JSON.stringify(json) };
    return fetch(`${this.api}${route}`, { method, headers: this.headers, ...body });
  }

  private async expect(answer: Response, expected: number, route: string) {
    if (answer.status !== expected) throw new Error(`${route} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as Record<string, unknown>;
  }
}
