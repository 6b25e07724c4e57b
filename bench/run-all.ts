import 'reflect-metadata';
import { FIXTURE_GROWING_CHANNEL } from '../test/fixtures/platform/fixture-list-catalog.js';
import {
  FIXTURE_VIDEOS,
  copiesPlaylistId,
  copyVideo,
  serviceEnvFor,
  startFixturePlatform,
} from '../test/fixtures/platform/fixture-platform.js';
import { Driver } from './driver.js';
import { benchEventStreams } from './event-streams.js';
import { benchFileServing } from './file-serving.js';
import { benchIdleCost } from './idle-cost.js';
import { benchJetStreamThroughput } from './jetstream-throughput.js';
import { benchStoreSize } from './store-size.js';
import { benchPollingAtScale } from './polling-at-scale.js';
import { benchPolling } from './polling.js';
import { benchProjectionLag } from './projection-lag.js';
import { benchReplay } from './replay.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';
import { QUICK, selectedBenchmarks } from './settings.js';
import { benchSubmit } from './submit.js';
import { benchManyJobs } from './many-jobs.js';
import { benchBatchPlaylist } from './batch-playlist.js';
import { benchSubscriptionChecks } from './subscription-checks.js';
import { benchWholeJob } from './whole-job.js';
import { benchWorkerBacklog } from './worker-backlog.js';

/**
 * Prints each figure next to a baseline measured in the same run, as a ratio.
 * The service runs in its own process and every load comes from another
 * (wrk, curl, yt-dlp); this process only orchestrates. See bench/README.md.
 */
async function main(): Promise<void> {
  const only = selectedBenchmarks();
  console.log(`bench${QUICK ? ' (quick)' : ''}: ${new Date().toISOString()}`);
  const platform = await startFixturePlatform();
  // One key polls at thousands of requests a second here, far past the default request rate limits: they are off,
  // and a second service process measures polling with them counted (at limits the load never reaches).
  const env = {
    ...serviceEnvFor(platform),
    METADATA_CACHE_TTL_SECONDS: '0',
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
  };
  const service = await startServiceProcess({ label: 'bench', roles: ['api', 'projector'], env });
  const driver = await Driver.open(service);
  try {
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    if (only.has('submit')) await benchSubmit(service, driver, url);
    if (only.has('polling')) {
      await benchPolling(service, driver, url);
      await withService(
        { ...env, RATE_LIMIT_KEY_PER_SECOND: '100000', RATE_LIMIT_ACCOUNT_PER_SECOND: '100000' },
        (limited, limitedDriver) => benchPolling(limited, limitedDriver, url, ' with request rate limits counted'),
      );
    }
    if (only.has('file-serving')) await benchFileServing(service, driver);
    if (only.has('projection-lag')) await benchProjectionLag(service, driver);
    if (only.has('polling-at-scale')) await benchPollingAtScale(service, driver, url, env);
    if (only.has('whole-job'))
      await benchWholeJob(serviceEnvFor(platform), (format) =>
        platform.watchUrl((format === '720' ? FIXTURE_VIDEOS.multi : FIXTURE_VIDEOS.clip).id),
      );
    if (only.has('many-jobs'))
      await benchManyJobs(serviceEnvFor(platform), (format) =>
        platform.watchUrl((format === '720' ? FIXTURE_VIDEOS.multi : FIXTURE_VIDEOS.clip).id),
      );
    if (only.has('batch-playlist'))
      await benchBatchPlaylist(serviceEnvFor(platform), {
        playlistUrl: (count) => platform.playlistUrl(copiesPlaylistId(count)),
        videoUrl: (number) => platform.watchUrl(copyVideo(number).id),
      });
    if (only.has('subscription-checks'))
      await benchSubscriptionChecks(serviceEnvFor(platform), platform.pageUrl(`/${FIXTURE_GROWING_CHANNEL.handle}`));
    if (only.has('worker-backlog'))
      await benchWorkerBacklog(serviceEnvFor(platform), platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    if (only.has('replay')) await benchReplay();
    if (only.has('jetstream')) await benchJetStreamThroughput();
    if (only.has('store-size')) await benchStoreSize();
    if (only.has('event-streams')) {
      // One key opens every stream: the per-key and per-process limits are raised past the load.
      const streamsEnv = { ...env, EVENT_STREAMS_PER_KEY: '5000', EVENT_STREAMS_MAX: '5000' };
      await withService(streamsEnv, (streams, streamsDriver) =>
        benchEventStreams(streams, streamsDriver, url, {
          streams: 20,
          jobs: 20,
          label: ' (baseline: one stream per job)',
        }),
      );
      await withService(streamsEnv, (streams, streamsDriver) =>
        benchEventStreams(streams, streamsDriver, url, { streams: QUICK ? 200 : 1_000, jobs: 20, label: '' }),
      );
    }
    if (only.has('idle-cost')) await benchIdleCost();
  } finally {
    await driver.close();
    await service.stop();
    await platform.stop();
  }
}

async function withService(
  env: Record<string, string>,
  work: (service: ServiceProcess, driver: Driver) => Promise<void>,
): Promise<void> {
  const service = await startServiceProcess({ label: 'bench_variant', roles: ['api', 'projector'], env });
  const driver = await Driver.open(service);
  try {
    await work(service, driver);
  } finally {
    await driver.close();
    await service.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
