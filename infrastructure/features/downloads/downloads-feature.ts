import { CancelDownload } from '../../../application/downloads/cancel-download.js';
import { GetDownloadJob } from '../../../application/downloads/get-download-job.js';
import { PendingJobViews } from '../../../application/downloads/pending-job-views.js';
import { SettledJobViews } from '../../../application/downloads/settled-job-views.js';
import { SubmitDownload } from '../../../application/downloads/submit-download.js';
import { VideoLookup } from '../../../application/downloads/video-lookup.js';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { ReconcilePendingDownloads } from '../../../application/processes/reconcile-pending-downloads.js';
import { ReleaseOrphanedReservation } from '../../../application/processes/release-orphaned-reservation.js';
import { RunDownload } from '../../../application/processes/run-download.js';
import { RunningDownloads } from '../../../application/processes/running-downloads.js';
import { SettleDownloadBilling } from '../../../application/processes/settle-download-billing.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL } from '../../../projections/download-job-view-changes.js';
import { downloadJobsProjection } from '../../../projections/download-jobs-projection.js';
import type { FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { token } from '../../composition/token.js';
import { TOKENS } from '../../composition/tokens.js';
import { downloadRoutes } from './download-routes.js';
import { fileRoutes } from './file-routes.js';
import { JobStatusHub } from '../../live/job-status-hub.js';
import { PostgresDownloadJobReadModel } from '../../postgres/postgres-download-job-read-model.js';
import { PostgresPendingDownloadAccounts } from '../../postgres/postgres-pending-download-accounts.js';
import type { ChannelSubscription } from '../../database/open-storage.js';
import { PeriodicTask } from '../../system/periodic-task.js';
import { DOWNLOAD_ERASURE, DOWNLOAD_TABLES } from './download-tables.js';
import { downloadOpenApi } from './download-openapi.js';

const settledViews = token<SettledJobViews>('SettledJobViews');
const pendingViews = token<PendingJobViews>('PendingJobViews');
const jobViewChanges = token<ChannelSubscription>('JobViewChangeListener');
// Only a backstop: attempts are counted in the job stream, and outages of this service's own infrastructure are retried with backoff.
const MAX_DELIVER = 1_000;

/** Downloads: submission, the worker's run, billing and orphaned reservations, and the files they leave. */
export const downloadsFeature = {
  name: 'downloads',
  requires: ['accounts', 'job watching'],
  openApi: [downloadOpenApi],
  register: (context) => {
    registerDownloads(context);
    registerDownloadProcesses(context);
  },
  projections: [downloadJobsProjection],
  readModelSchema: DOWNLOAD_TABLES,
  erasureStatements: DOWNLOAD_ERASURE,
  work: {
    download: (c, config) => ({
      handle: (message, delivery) => c.resolve(RunDownload).handle(message, delivery),
      concurrency: config.jobs.workerConcurrency,
      maxDeliver: MAX_DELIVER,
    }),
    billing: (c) => ({
      handle: (message) => c.resolve(SettleDownloadBilling).handle(message),
      concurrency: 4,
      maxDeliver: MAX_DELIVER,
    }),
    reservation: (c) => ({
      handle: (message) => c.resolve(ReleaseOrphanedReservation).handle(message),
      concurrency: 2,
      maxDeliver: MAX_DELIVER,
    }),
  },
  api: ({ container: c, config, validation, urls }) => {
    const changes = c.resolve(jobViewChanges);
    const hub = c.resolve(JobStatusHub);
    const pending = c.resolve(pendingViews);
    // Queued and running jobs' views are served from memory only while this process hears their status events.
    pending.serveWhile(() => hub.followingStretch);
    const stopForgetting = hub.onStatusChange((jobId) => pending.changed(jobId));
    const links = c.resolve(TOKENS.downloadLinks);
    const clock = c.resolve(TOKENS.clock);
    const cancelDownload = new CancelDownload(
      c.resolve(TOKENS.downloadJobCommands),
      c.resolve(TOKENS.jobCancellations),
      clock,
      {
        accounts: c.resolve(TOKENS.accountCommands),
        jobViews: c.resolve(TOKENS.downloadJobReadModel),
        accountProgress: c.resolve(TOKENS.accountReadProgress),
        waitMs: config.accounts.readYourWritesWaitMs,
      },
    );
    return {
      apiRouters: [
        downloadRoutes({
          submitDownload: c.resolve(SubmitDownload),
          getDownloadJob: c.resolve(GetDownloadJob),
          cancelDownload,
          links,
          clock,
          validation,
          urls,
          progressOf: (jobId) => hub.progress.of(jobId),
        }),
      ],
      publicRouters: [fileRoutes({ files: c.resolve(TOKENS.fileStore), links, clock })],
      start: () => changes.start(),
      stop: () => {
        stopForgetting();
        return changes.close();
      },
    };
  },
  workerLoops: ({ container: c }) => {
    let listening: { stop(): Promise<void> } | null = null;
    const running = c.resolve(RunningDownloads);
    const start = () => {
      listening = c.resolve(TOKENS.jobCancellations).listen((jobId) => running.cancel(jobId));
    };
    return [{ start, stop: async () => listening?.stop() }];
  },
  leaderLoops: ({ container: c, config, logger }) => [
    new PeriodicTask(
      'reconcile pending downloads',
      config.jobs.reconcileIntervalMs,
      () => c.resolve(ReconcilePendingDownloads).runOnce(),
      logger,
    ),
  ],
} satisfies FeatureModule;

function registerDownloads({ container: c, config }: FeatureContext): void {
  const { eventStore, reads, listen } = c.resolve(TOKENS.storage);
  const jobs = () => c.resolve(TOKENS.downloadJobCommands);
  const accounts = () => c.resolve(TOKENS.accountCommands);
  const clock = () => c.resolve(TOKENS.clock);
  // At most about a second stale should a status event ever go unheard; bounded like the finished jobs' views.
  c.singleton(pendingViews, () => new PendingJobViews({ maxEntries: 10_000, maxAgeMs: 1_000 }));
  c.singleton(
    TOKENS.downloadJobCommands,
    () =>
      new CommandHandler(eventStore, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, c.resolve(TOKENS.ids), {
        // This process's own appends (a cancel) show in its next poll without waiting to hear the event.
        appended: (jobId) => c.resolve(pendingViews).changed(jobId),
      }),
  );
  c.value(TOKENS.downloadJobReadModel, new PostgresDownloadJobReadModel(reads));
  c.singleton(
    VideoLookup,
    () =>
      new VideoLookup(c.resolve(TOKENS.extractor.probe), {
        ttlMs: config.lookups.metadataCacheTtlSeconds * 1000,
        maxEntries: 1000,
        concurrency: config.lookups.extractorConcurrency,
        maxPerRequester: config.lookups.queuePerAccount,
        maxWaiting: config.lookups.queueMax,
      }),
  );
  c.singleton(
    SubmitDownload,
    () => new SubmitDownload(accounts(), jobs(), c.resolve(VideoLookup), c.resolve(TOKENS.ids), clock()),
  );
  // Finished jobs' views are kept only while the api role listens for the read model's changes.
  c.singleton(settledViews, () => new SettledJobViews(10_000));
  c.singleton(jobViewChanges, () => {
    const views = c.resolve(settledViews);
    const pending = c.resolve(pendingViews);
    return listen(DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL, {
      onNotification: (jobId) => {
        views.changed(jobId);
        // A second announcer of the same changes, later than the job streams but independent of their follower.
        pending.changed(jobId);
      },
      onListening: () => views.trust(),
      onLost: () => views.distrust(),
    });
  });
  c.singleton(
    GetDownloadJob,
    () =>
      new GetDownloadJob(
        c.resolve(TOKENS.downloadJobReadModel),
        jobs(),
        c.resolve(ChargeVisibility),
        c.resolve(settledViews),
        c.resolve(pendingViews),
      ),
  );
}

/** What the workers run for a download, and what settles or reconciles its account afterwards. */
function registerDownloadProcesses({ container: c, config, logger }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  const jobs = () => c.resolve(TOKENS.downloadJobCommands);
  const accounts = () => c.resolve(TOKENS.accountCommands);
  const clock = () => c.resolve(TOKENS.clock);
  c.singleton(RunningDownloads, () => new RunningDownloads());
  c.singleton(
    RunDownload,
    () =>
      new RunDownload({
        jobs: jobs(),
        extractor: c.resolve(TOKENS.extractor.download),
        files: c.resolve(TOKENS.fileStore),
        workDirs: c.resolve(TOKENS.workDirs),
        clock: clock(),
        logger,
        options: {
          maxAttempts: config.jobs.downloadMaxAttempts,
          retryBaseDelayMs: config.jobs.downloadRetryBaseMs,
          retryMaxDelayMs: Math.max(config.jobs.downloadRetryBaseMs, 5 * 60_000),
        },
        running: c.resolve(RunningDownloads),
        progress: c.resolve(TOKENS.progressReports),
      }),
  );
  c.singleton(
    SettleDownloadBilling,
    () => new SettleDownloadBilling(jobs(), accounts(), clock(), eventStore, c.resolve(TOKENS.anomalies)),
  );
  c.singleton(
    ReleaseOrphanedReservation,
    () => new ReleaseOrphanedReservation(jobs(), accounts(), clock(), config.jobs.reservationGraceMs),
  );
  c.singleton(
    ReconcilePendingDownloads,
    () =>
      new ReconcilePendingDownloads({
        store: eventStore,
        jobs: jobs(),
        accounts: accounts(),
        pending: new PostgresPendingDownloadAccounts(database),
        settle: c.resolve(SettleDownloadBilling),
        releaseOrphan: c.resolve(ReleaseOrphanedReservation),
        clock: clock(),
        logger,
        pendingLimitMs: config.jobs.pendingDownloadLimitMs,
        cancellations: c.resolve(TOKENS.jobCancellations),
      }),
  );
}
