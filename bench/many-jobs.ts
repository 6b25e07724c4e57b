import type { MediaFormat } from '../domain/media-format.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDownloadArguments } from '../infrastructure/extractor/build-download-arguments.js';
import { Driver } from './driver.js';
import { startServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { cpuSeconds, processTreeCpuSeconds, timedProcess } from './timed-process.js';
import { handRunOptions } from './hand-run-options.js';

/**
 * `BENCH_MANY_JOBS` (100; 10 with --quick) audio downloads of a short clip
 * submitted together to one service process (api, projector and worker,
 * at its default `WORKER_CONCURRENCY`, sized from the machine, or
 * `BENCH_MANY_CONCURRENCY` downloads at once; forked from its warm yt-dlp),
 * until the last is COMPLETED; against the same number of
 * hand-run yt-dlp commands one after another. CPU time of each side (the
 * service with the yt-dlp and ffmpeg it ran; the bench's own yt-dlp children)
 * over its wall time says whether CPU was the limit.
 */
export async function benchManyJobs(
  env: Record<string, string>,
  videoUrlOf: (format: MediaFormat) => string,
): Promise<void> {
  const count = Number(process.env.BENCH_MANY_JOBS ?? (QUICK ? 10 : 100));
  // `BENCH_MANY_FORMAT`: what the sizing table's jobs per core-hour are measured with, format by format.
  const format = (process.env.BENCH_MANY_FORMAT ?? 'audio') as MediaFormat;
  const videoUrl = videoUrlOf(format);
  const concurrency = process.env.BENCH_MANY_CONCURRENCY;
  const service = await startServiceProcess({
    label: 'bench_many',
    roles: ['api', 'projector', 'worker'],
    env: {
      ...env,
      ...(concurrency === undefined ? {} : { WORKER_CONCURRENCY: concurrency }),
      DOWNLOAD_RETRY_BASE_MS: '0',
      RATE_LIMIT_KEY_PER_SECOND: '0',
      RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
    },
  });
  const driver = await Driver.open(service);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-many-'));
  try {
    const { apiKey } = await driver.openAccount();
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const submit = async () => {
      const answer = await fetch(`${service.api}/download`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: videoUrl, format }),
      });
      if (answer.status !== 200)
        throw new Error(`a bench submission answered ${answer.status}: ${await answer.text()}`);
      return ((await answer.json()) as { jobId: string }).jobId;
    };
    const completed = async (jobId: string) => {
      const poll = await fetch(`${service.api}/download/${jobId}`, { headers });
      if (poll.status !== 200) throw new Error(`a poll of the bench job ${jobId} answered ${poll.status}`);
      const { status } = (await poll.json()) as { status: string };
      if (status === 'FAILED') throw new Error(`the bench job ${jobId} failed`);
      return status === 'COMPLETED';
    };
    // One first, so neither side pays for a cold cache of the fixture's media, and the fork server is up.
    const first = await submit();
    while (!(await completed(first))) await new Promise((resolve) => setTimeout(resolve, 50));

    const serviceCpu = await processTreeCpuSeconds(service.pid);
    const started = performance.now();
    const jobs = await Promise.all(Array.from({ length: count }, submit));
    let pending = jobs;
    while (pending.length > 0) {
      const done = await Promise.all(pending.map(completed));
      pending = pending.filter((_, index) => !done[index]);
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const serviceMs = performance.now() - started;
    const serviceCpuSeconds = (await processTreeCpuSeconds(service.pid)) - serviceCpu;

    const ytDlpEnv = {
      ...process.env,
      PYTHONPATH: [env.YT_DLP_PYTHONPATH, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
    };
    const handCpu = cpuSeconds('self');
    const handStarted = performance.now();
    for (let index = 0; index < count; index += 1) {
      const args = [
        ...handRunOptions(service.config.extractor),
        ...buildDownloadArguments({
          url: videoUrl,
          format,
          outputTemplate: path.join(scratch, String(index), 'media.%(ext)s'),
        }),
      ];
      await timedProcess(service.config.extractor.ytDlpPath, args, ytDlpEnv);
    }
    const handMs = performance.now() - handStarted;
    const handCpuSeconds = cpuSeconds('self') - handCpu;
    console.log(
      `many jobs (${count} ${format} downloads submitted together, ${service.config.jobs.workerConcurrency} at once${concurrency === undefined ? ', the default' : ''}): all COMPLETED in ${(serviceMs / 1000).toFixed(1)} s, ` +
        `CPU ${serviceCpuSeconds.toFixed(1)} s (${((100 * serviceCpuSeconds) / (serviceMs / 1000)).toFixed(0)}% of a core; ${(serviceCpuSeconds / count).toFixed(3)} s a job, ${Math.round((3600 * count) / serviceCpuSeconds)} jobs per core-hour); ` +
        `the same ${count} yt-dlp commands one after another ${(handMs / 1000).toFixed(1)} s, CPU ${handCpuSeconds.toFixed(1)} s (${((100 * handCpuSeconds) / (handMs / 1000)).toFixed(0)}% of a core); ` +
        `ratio ${(serviceMs / handMs).toFixed(2)}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await driver.close();
    await service.stop();
  }
}
