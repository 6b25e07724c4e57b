import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MediaFormat } from '../domain/media-format.js';
import { buildDownloadArguments } from '../infrastructure/extractor/build-download-arguments.js';
import { Driver } from './driver.js';
import { startServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { type JobStages, describeRunSteps, describeStages, jobStages } from './job-stages.js';
import { curlRequest, percentile, timedProcess } from './timed-process.js';
import { type HandRunSplit, describeHandRunSplits, handRunSplit } from './hand-run-split.js';
import { handRunOptions } from './hand-run-options.js';

const FORMATS: MediaFormat[] = ['audio', 'audio-mp3', '720'];

/**
 * A whole job, from POST /download to the poll that first says COMPLETED
 * (api, projector and worker roles in one service process), against the
 * single yt-dlp command a person would run for the same file: the same
 * download options the service uses, run by hand in an empty directory.
 * Alternating, per format.
 */
export async function benchWholeJob(
  env: Record<string, string>,
  videoUrl: (format: MediaFormat) => string,
): Promise<void> {
  const samples = QUICK ? 2 : 5;
  const jobsByFormat = new Map<MediaFormat, string[]>();
  let log = '';
  // The bench polls every 10 ms, past the default request rate limits: they are off here, and every poll must answer 200.
  const service = await startServiceProcess({
    label: 'bench_jobs',
    roles: ['api', 'projector', 'worker'],
    env: { ...env, DOWNLOAD_RETRY_BASE_MS: '0', RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_ACCOUNT_PER_SECOND: '0' },
  });
  const driver = await Driver.open(service);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-by-hand-'));
  try {
    const { apiKey } = await driver.openAccount();
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const ytDlpEnv = {
      ...process.env,
      PYTHONPATH: [env.YT_DLP_PYTHONPATH, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
    };
    const stages: JobStages[] = [];
    let jobIds: string[] = [];
    const job = async (format: MediaFormat) => {
      const started = performance.now();
      const { body, ms: submitMs } = await curlRequest(`${service.api}/download`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: videoUrl(format), format }),
      });
      const answeredAt = Date.now();
      const { jobId } = JSON.parse(body) as { jobId: string };
      for (;;) {
        const poll = await fetch(`${service.api}/download/${jobId}`, { headers });
        if (poll.status !== 200)
          throw new Error(`a poll of the bench job ${jobId} answered ${poll.status}: its timing would be meaningless`);
        const { status } = (await poll.json()) as { status: string };
        if (status === 'COMPLETED') {
          const ms = performance.now() - started;
          stages.push(await jobStages(driver.store, jobId, { submitMs, answeredAt, visibleAt: Date.now() }));
          jobIds.push(jobId);
          return ms;
        }
        if (status === 'FAILED') throw new Error(`the bench job ${jobId} failed`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const handArgs = (format: MediaFormat, run: string) => [
      ...handRunOptions(service.config.extractor),
      ...buildDownloadArguments({
        url: videoUrl(format),
        format,
        outputTemplate: path.join(scratch, `${format}-${run}`, 'media.%(ext)s'),
      }),
    ];
    const byHand = async (format: MediaFormat, round: number) =>
      (await timedProcess(service.config.extractor.ytDlpPath, handArgs(format, String(round)), ytDlpEnv)).ms;
    // What every cold yt-dlp run pays before it does anything: Python's start-up and yt_dlp's import.
    const startUp = async () =>
      (await timedProcess(service.config.extractor.ytDlpPath, ['--ignore-config', '--version'], ytDlpEnv)).ms;
    for (const format of FORMATS) {
      // One of each first, so neither side pays for a cold cache of the fixture's media; its figures are not kept.
      jobIds = [];
      await job(format);
      await byHand(format, -1);
      const jobs: number[] = [];
      const hand: number[] = [];
      const startUps: number[] = [];
      const splits: HandRunSplit[] = [];
      stages.length = 0;
      jobIds = [];
      jobsByFormat.set(format, jobIds);
      for (let round = 0; round < samples; round += 1) {
        jobs.push(await job(format));
        hand.push(await byHand(format, round));
        startUps.push(await startUp());
        splits.push(
          await handRunSplit(service.config.extractor.ytDlpPath, handArgs(format, `split-${round}`), ytDlpEnv, scratch),
        );
      }
      console.log(
        `whole job (${format}, ${samples} each): submit to COMPLETED p50 ${percentile(jobs, 0.5).toFixed(0)} ms; ` +
          `the same yt-dlp command by hand p50 ${percentile(hand, 0.5).toFixed(0)} ms; ratio ${(percentile(jobs, 0.5) / percentile(hand, 0.5)).toFixed(2)}`,
      );
      console.log(
        `  stages (p50): ${describeStages(stages)}; yt-dlp's start-up alone (--version) p50 ${percentile(startUps, 0.5).toFixed(0)} ms`,
      );
      console.log(`  the command by hand, split (p50, runs of their own): ${describeHandRunSplits(splits)}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await driver.close();
    log = await service.stop();
  }
  for (const [format, jobIds] of jobsByFormat)
    console.log(`whole job (${format}), inside the run (p50): ${describeRunSteps(log, jobIds)}`);
}
