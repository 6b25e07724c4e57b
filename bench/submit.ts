import path from 'node:path';
import type { Driver } from './driver.js';
import type { ServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { curlRequest, percentile, timedProcess } from './timed-process.js';
import { handRunOptions } from './hand-run-options.js';

/**
 * POST /download for a video the service has not looked up (the service runs
 * with METADATA_CACHE_TTL_SECONDS=0, so every submission extracts the page),
 * side by side with a cold `yt-dlp -J` of the same page, alternating.
 */
export async function benchSubmit(service: ServiceProcess, driver: Driver, videoUrl: string): Promise<void> {
  const { apiKey } = await driver.openAccount();
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const env = {
    ...process.env,
    PYTHONPATH: [service.env.YT_DLP_PYTHONPATH, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
  };
  const samples = QUICK ? 3 : 7;
  const cold: number[] = [];
  const submit: number[] = [];
  // The first submission warms whatever the service keeps warm; it is not counted.
  await curlRequest(`${service.api}/download`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: videoUrl, format: 'audio' }),
  });
  for (let i = 0; i < samples; i += 1) {
    cold.push(
      (
        await timedProcess(
          service.config.extractor.ytDlpPath,
          ['-J', ...handRunOptions(service.config.extractor), '--no-playlist', '--', videoUrl],
          env,
        )
      ).ms,
    );
    submit.push(
      (
        await curlRequest(`${service.api}/download`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ url: videoUrl, format: 'audio' }),
        })
      ).ms,
    );
  }
  const ratio = percentile(submit, 0.5) / percentile(cold, 0.5);
  console.log(
    `submit (new video, ${samples} each): POST /download p50 ${percentile(submit, 0.5).toFixed(1)} ms max ${Math.max(...submit).toFixed(1)} ms; ` +
      `cold yt-dlp -J p50 ${percentile(cold, 0.5).toFixed(1)} ms; ratio ${ratio.toFixed(3)}`,
  );
}
