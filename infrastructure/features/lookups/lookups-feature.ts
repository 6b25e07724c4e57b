import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { GetLookupJob } from '../../../application/lookups/get-lookup-job.js';
import { lookUpClientDownloadLinks } from '../../../application/lookups/look-up-client-download-links.js';
import { lookUpVideoInfo } from '../../../application/lookups/look-up-video-info.js';
import { lookupJobSteps } from '../../../application/lookups/lookup-job-steps.js';
import type {
  ClientDownloadJobCommandHandler,
  InfoJobCommandHandler,
} from '../../../application/lookups/lookup-job-commands.js';
import { type LookupJobReadModel, lookupJobViewFromState } from '../../../application/lookups/lookup-job-view.js';
import { SubmitLookupJob, type SubmitLookupJobDependencies } from '../../../application/lookups/submit-lookup-job.js';
import type { LookupFeature } from '../../../domain/account/lookups.js';
import type { LookupRetryOptions } from '../../../application/processes/lookup-attempt.js';
import { ReconcilePendingLookups } from '../../../application/processes/reconcile-pending-lookups.js';
import { ReleaseOrphanedLookup } from '../../../application/processes/release-orphaned-lookup.js';
import { RunLookupJob } from '../../../application/processes/run-lookup-job.js';
import { SettleLookupBilling } from '../../../application/processes/settle-lookup-billing.js';
import {
  CLIENT_DOWNLOAD_JOB,
  CLIENT_DOWNLOAD_JOB_CATEGORY,
  type ClientDownloadInfo,
  clientDownloadJobDecider,
} from '../../../domain/lookup-job/client-download-job.js';
import type { ClientDownloadPlatform } from '../../../domain/client-download-url.js';
import { INFO_JOB, INFO_JOB_CATEGORY, type VideoInfo, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { lookupJobsProjection } from '../../../projections/lookup-jobs-projection.js';
import type { Container } from '../../composition/container.js';
import type { FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { token } from '../../composition/token.js';
import { TOKENS } from '../../composition/tokens.js';
import { clientDownloadRoutes } from './client-download-routes.js';
import { type InfoJobDetails, infoRoutes } from './info-routes.js';
import { ExpiredLookupJobsSweeper } from '../../postgres/expired-lookup-jobs-sweeper.js';
import { PostgresLookupJobReadModel } from '../../postgres/postgres-lookup-job-read-model.js';
import { PostgresPendingLookupAccounts } from '../../postgres/postgres-pending-lookup-accounts.js';
import { PeriodicTask } from '../../system/periodic-task.js';
import { LOOKUP_ERASURE, LOOKUP_TABLES } from './lookup-tables.js';
import { clientDownloadOpenApi } from './client-download-openapi.js';
import { infoOpenApi } from './info-openapi.js';

/** What a client-download job is requested with, besides its URL. */
type ClientDownloadJobDetails = { platform: ClientDownloadPlatform; canonicalUrl: string };

const LOOKUP_TOKENS = {
  infoJobCommands: token<InfoJobCommandHandler>('InfoJobCommandHandler'),
  clientDownloadJobCommands: token<ClientDownloadJobCommandHandler>('ClientDownloadJobCommandHandler'),
  lookupJobReadModel: token<LookupJobReadModel>('LookupJobReadModel'),
  submitInfo: token<SubmitLookupJob<InfoJobDetails>>('SubmitInfo'),
  submitClientDownload: token<SubmitLookupJob<ClientDownloadJobDetails>>('SubmitClientDownload'),
  getInfoJob: token<GetLookupJob>('GetInfoJob'),
  getClientDownloadJob: token<GetLookupJob>('GetClientDownloadJob'),
  runInfoJob: token<RunLookupJob<VideoInfo>>('RunInfoJob'),
  runClientDownloadJob: token<RunLookupJob<ClientDownloadInfo>>('RunClientDownloadJob'),
  settleLookupBilling: token<SettleLookupBilling>('SettleLookupBilling'),
} as const;
// Only a backstop, as for downloads: attempts are counted in the job stream, outages of this service's own
// infrastructure are retried with backoff, and the reconciler ends whatever stays pending past its bound.
const MAX_DELIVER = 1_000;

/** Video info and client-download lookups: jobs a client polls, run by the workers like downloads. */
export const lookupsFeature = {
  name: 'lookups',
  requires: ['accounts'],
  openApi: [infoOpenApi, clientDownloadOpenApi],
  register: (context) => {
    registerLookupJobs(context);
    registerLookupSubmissions(context);
    registerLookupQueries(context);
    registerLookupRuns(context);
    registerLookupRecovery(context);
  },
  projections: [lookupJobsProjection],
  readModelSchema: LOOKUP_TABLES,
  erasureStatements: LOOKUP_ERASURE,
  work: {
    info: (c, config) => ({
      handle: (message, delivery) => c.resolve(LOOKUP_TOKENS.runInfoJob).handle(message, delivery),
      concurrency: config.jobs.workerConcurrency,
      maxDeliver: MAX_DELIVER,
    }),
    'client-download': (c, config) => ({
      handle: (message, delivery) => c.resolve(LOOKUP_TOKENS.runClientDownloadJob).handle(message, delivery),
      concurrency: config.jobs.workerConcurrency,
      maxDeliver: MAX_DELIVER,
    }),
    'lookup-reservation': (c) => ({
      handle: (message) => c.resolve(ReleaseOrphanedLookup).handle(message),
      concurrency: 2,
      maxDeliver: MAX_DELIVER,
    }),
  },
  api: ({ container: c, validation, urls }) => ({
    apiRouters: [
      infoRoutes({
        submitInfo: c.resolve(LOOKUP_TOKENS.submitInfo),
        getInfoJob: c.resolve(LOOKUP_TOKENS.getInfoJob),
        validation,
        urls,
      }),
      clientDownloadRoutes({
        submitClientDownload: c.resolve(LOOKUP_TOKENS.submitClientDownload),
        getClientDownloadJob: c.resolve(LOOKUP_TOKENS.getClientDownloadJob),
        validation,
        urls,
      }),
    ],
  }),
  projectorLoops: ({ container: c, logger }) => {
    const expired = new ExpiredLookupJobsSweeper(c.resolve(TOKENS.database), c.resolve(TOKENS.clock));
    return [new PeriodicTask('sweep expired lookup jobs', 60_000, () => expired.sweep(), logger)];
  },
  leaderLoops: ({ container: c, config, logger }) => [
    new PeriodicTask(
      'reconcile pending lookups',
      config.jobs.reconcileIntervalMs,
      () => c.resolve(ReconcilePendingLookups).runOnce(),
      logger,
    ),
  ],
} satisfies FeatureModule;

/** The lookup jobs' streams and read model. */
function registerLookupJobs({ container: c }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  const ids = () => c.resolve(TOKENS.ids);
  c.singleton(
    LOOKUP_TOKENS.infoJobCommands,
    () => new CommandHandler(eventStore, infoJobDecider, INFO_JOB_CATEGORY, ids()),
  );
  c.singleton(
    LOOKUP_TOKENS.clientDownloadJobCommands,
    () => new CommandHandler(eventStore, clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, ids()),
  );
  c.singleton(LOOKUP_TOKENS.lookupJobReadModel, () => new PostgresLookupJobReadModel(database));
}

/** The submissions of lookup jobs: a unit reserved on the account, then the job's stream opened. */
function registerLookupSubmissions({ container: c, config }: FeatureContext): void {
  const submission = <Details>(
    feature: LookupFeature,
    lifetimeSeconds: number,
    createJob: SubmitLookupJobDependencies<Details>['createJob'],
  ) =>
    new SubmitLookupJob<Details>({
      feature,
      accounts: c.resolve(TOKENS.accountCommands),
      createJob,
      ids: c.resolve(TOKENS.ids),
      clock: c.resolve(TOKENS.clock),
      lifetimeMs: lifetimeSeconds * 1000,
    });
  c.singleton(LOOKUP_TOKENS.submitInfo, () =>
    submission<InfoJobDetails>('info', config.lookups.infoJobTtlSeconds, (job, context) =>
      c.resolve(LOOKUP_TOKENS.infoJobCommands).handle(job.jobId, requestInfo(job), context),
    ),
  );
  c.singleton(LOOKUP_TOKENS.submitClientDownload, () =>
    submission<ClientDownloadJobDetails>(
      'client_download',
      config.lookups.clientDownloadJobTtlSeconds,
      (job, context) =>
        c.resolve(LOOKUP_TOKENS.clientDownloadJobCommands).handle(job.jobId, requestClientDownload(job), context),
    ),
  );
}

type NewLookupJob<Details> = Parameters<SubmitLookupJobDependencies<Details>['createJob']>[0];

function requestInfo(job: NewLookupJob<InfoJobDetails>) {
  const { jobId, accountId, url, expiresAt, now } = job;
  const { videoUrl, includeAudioTracks } = job.details;
  return {
    type: 'RequestInfo' as const,
    data: { jobId, accountId, url, videoUrl, includeAudioTracks, expiresAt, now },
  };
}

function requestClientDownload(job: NewLookupJob<ClientDownloadJobDetails>) {
  const { jobId, accountId, url, expiresAt, now } = job;
  const { canonicalUrl, platform } = job.details;
  return {
    type: 'RequestClientDownload' as const,
    data: { jobId, accountId, url, canonicalUrl, platform, expiresAt, now },
  };
}

/** The polls of lookup jobs: the read model first, the job's stream when its row is not there yet. */
function registerLookupQueries({ container: c }: FeatureContext): void {
  const clock = () => c.resolve(TOKENS.clock);
  const infoJobs = () => c.resolve(LOOKUP_TOKENS.infoJobCommands);
  const clientJobs = () => c.resolve(LOOKUP_TOKENS.clientDownloadJobCommands);
  const readModel = () => c.resolve(LOOKUP_TOKENS.lookupJobReadModel);
  c.singleton(
    LOOKUP_TOKENS.getInfoJob,
    () =>
      new GetLookupJob(
        'info',
        readModel(),
        async (jobId) => lookupJobViewFromState('info', (await infoJobs().load(jobId)).state),
        clock(),
        c.resolve(ChargeVisibility),
      ),
  );
  c.singleton(
    LOOKUP_TOKENS.getClientDownloadJob,
    () =>
      new GetLookupJob(
        'client-download',
        readModel(),
        async (jobId) => lookupJobViewFromState('client-download', (await clientJobs().load(jobId)).state),
        clock(),
        c.resolve(ChargeVisibility),
      ),
  );
}

/** What the workers run for a lookup job, and the billing that settles its account afterwards. */
function registerLookupRuns({ container: c, config, logger }: FeatureContext): void {
  const { eventStore } = c.resolve(TOKENS.storage);
  const clock = () => c.resolve(TOKENS.clock);
  const accounts = () => c.resolve(TOKENS.accountCommands);
  const settle = () => c.resolve(LOOKUP_TOKENS.settleLookupBilling);
  const retry: LookupRetryOptions = {
    maxAttempts: config.jobs.downloadMaxAttempts,
    retryBaseDelayMs: config.jobs.downloadRetryBaseMs,
    retryMaxDelayMs: Math.max(config.jobs.downloadRetryBaseMs, 5 * 60_000),
  };
  c.singleton(
    LOOKUP_TOKENS.settleLookupBilling,
    () => new SettleLookupBilling(accounts(), clock(), eventStore, c.resolve(TOKENS.anomalies)),
  );
  c.singleton(
    LOOKUP_TOKENS.runInfoJob,
    () =>
      new RunLookupJob<VideoInfo>({
        label: 'info lookup',
        steps: lookupSteps(c).info,
        settle: settle(),
        clock: clock(),
        logger,
        options: retry,
      }),
  );
  c.singleton(
    LOOKUP_TOKENS.runClientDownloadJob,
    () =>
      new RunLookupJob<ClientDownloadInfo>({
        label: 'client-download lookup',
        steps: lookupSteps(c).client_download,
        settle: settle(),
        clock: clock(),
        logger,
        options: retry,
      }),
  );
}

/** What ends reservations and jobs that outages left behind. */
function registerLookupRecovery({ container: c, config, logger }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  const clock = () => c.resolve(TOKENS.clock);
  const accounts = () => c.resolve(TOKENS.accountCommands);
  const settle = () => c.resolve(LOOKUP_TOKENS.settleLookupBilling);
  c.singleton(
    ReleaseOrphanedLookup,
    () =>
      new ReleaseOrphanedLookup(accounts(), clock(), {
        graceMs: config.jobs.reservationGraceMs,
        listingTimeoutMs: config.lookups.channelListingTimeoutSeconds * 1000,
        jobs: lookupSteps(c),
      }),
  );
  c.singleton(
    ReconcilePendingLookups,
    () =>
      new ReconcilePendingLookups({
        store: eventStore,
        pending: new PostgresPendingLookupAccounts(database),
        jobs: lookupSteps(c),
        accounts: accounts(),
        settle: settle(),
        releaseOrphan: c.resolve(ReleaseOrphanedLookup),
        clock: clock(),
        logger,
        pendingLimitMs: config.jobs.pendingLookupLimitMs,
      }),
  );
}

function lookupSteps(c: Container) {
  return {
    info: lookupJobSteps(
      INFO_JOB,
      c.resolve(LOOKUP_TOKENS.infoJobCommands),
      lookUpVideoInfo(c.resolve(TOKENS.extractor.probe)),
    ),
    client_download: lookupJobSteps(
      CLIENT_DOWNLOAD_JOB,
      c.resolve(LOOKUP_TOKENS.clientDownloadJobCommands),
      lookUpClientDownloadLinks(c.resolve(TOKENS.extractor.resolveMediaLinks)),
    ),
  };
}
