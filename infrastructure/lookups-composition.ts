import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { DependencyContainer } from 'tsyringe';
import { instanceCachingFactory } from 'tsyringe';
import type { AccountCommandHandler } from '../application/accounts/account-commands.js';
import { ChargeVisibility } from '../application/accounts/charge-visibility.js';
import type { AccountReadProgress } from '../application/ports/account-read-progress.js';
import { CommandHandler } from '../application/command-handler.js';
import { GetLookupJob } from '../application/lookups/get-lookup-job.js';
import { ListChannel } from '../application/lookups/list-channel.js';
import { lookUpClientDownloadLinks } from '../application/lookups/look-up-client-download-links.js';
import { lookUpVideoInfo } from '../application/lookups/look-up-video-info.js';
import type { ClientDownloadJobCommandHandler, InfoJobCommandHandler } from '../application/lookups/lookup-job-commands.js';
import { lookupJobSteps } from '../application/lookups/lookup-job-steps.js';
import { type LookupJobReadModel, lookupJobViewFromState } from '../application/lookups/lookup-job-view.js';
import { SubmitLookupJob } from '../application/lookups/submit-lookup-job.js';
import type { Clock } from '../application/ports/clock.js';
import type { EventStore } from '../application/ports/event-store.js';
import type { Extractor } from '../application/ports/extractor.js';
import type { IdGenerator } from '../application/ports/id-generator.js';
import type { Anomalies } from '../application/ports/anomalies.js';
import type { Logger } from '../application/ports/logger.js';
import type { LookupRetryOptions } from '../application/processes/lookup-attempt.js';
import { ReconcilePendingLookups } from '../application/processes/reconcile-pending-lookups.js';
import { ReleaseOrphanedLookup } from '../application/processes/release-orphaned-lookup.js';
import { RunLookupJob } from '../application/processes/run-lookup-job.js';
import { SettleLookupBilling } from '../application/processes/settle-lookup-billing.js';
import type { JobMessage, WorkKind } from '../application/processes/work-routing.js';
import type { Delivery, WorkOutcome } from '../application/processes/work-outcome.js';
import type { ClientDownloadPlatform } from '../domain/client-download-url.js';
import { CLIENT_DOWNLOAD_JOB, CLIENT_DOWNLOAD_JOB_CATEGORY, type ClientDownloadInfo, clientDownloadJobDecider } from '../domain/lookup-job/client-download-job.js';
import { INFO_JOB, INFO_JOB_CATEGORY, infoJobDecider, type VideoInfo } from '../domain/lookup-job/info-job.js';
import type { Config } from './config/config.js';
import { TOKENS } from './container.js';
import type { RequestValidation } from './http/request-validation.js';
import { clientDownloadRoutes } from './http/routes/client-download-routes.js';
import { type InfoJobDetails, infoRoutes } from './http/routes/info-routes.js';
import { listChannelRoutes } from './http/routes/list-channel-routes.js';
import type { UrlPolicies } from './http/url-policies.js';
import { PostgresLookupJobReadModel } from './postgres/postgres-lookup-job-read-model.js';
import { PostgresPendingLookupAccounts } from './postgres/postgres-pending-lookup-accounts.js';

/** The composition of video info, client-download and channel-listing lookups, kept apart from the download pipeline's. */
export const LOOKUP_TOKENS = {
  infoJobCommands: Symbol('InfoJobCommandHandler'),
  clientDownloadJobCommands: Symbol('ClientDownloadJobCommandHandler'),
  lookupJobReadModel: Symbol('LookupJobReadModel'),
  submitInfo: Symbol('SubmitInfo'),
  submitClientDownload: Symbol('SubmitClientDownload'),
  getInfoJob: Symbol('GetInfoJob'),
  getClientDownloadJob: Symbol('GetClientDownloadJob'),
  runInfoJob: Symbol('RunInfoJob'),
  runClientDownloadJob: Symbol('RunClientDownloadJob'),
  settleLookupBilling: Symbol('SettleLookupBilling'),
} as const;

export function registerLookups(container: DependencyContainer, config: Config, logger: Logger): void {
  const resolve = <T>(token: symbol): T => container.resolve<T>(token);
  const single = <T>(make: () => T) => ({ useFactory: instanceCachingFactory<T>(make) });
  const store = () => resolve<EventStore>(TOKENS.eventStore);
  const ids = () => resolve<IdGenerator>(TOKENS.ids);
  const clock = () => resolve<Clock>(TOKENS.clock);
  const accounts = () => resolve<AccountCommandHandler>(TOKENS.accountCommands);
  const extractor = () => resolve<Extractor>(TOKENS.extractor);
  const infoJobs = () => resolve<InfoJobCommandHandler>(LOOKUP_TOKENS.infoJobCommands);
  const clientJobs = () => resolve<ClientDownloadJobCommandHandler>(LOOKUP_TOKENS.clientDownloadJobCommands);
  const readModel = () => resolve<LookupJobReadModel>(LOOKUP_TOKENS.lookupJobReadModel);
  const settle = () => resolve<SettleLookupBilling>(LOOKUP_TOKENS.settleLookupBilling);
  const jobSteps = () => ({ info: lookupJobSteps(INFO_JOB, infoJobs(), lookUpVideoInfo(extractor())), client_download: lookupJobSteps(CLIENT_DOWNLOAD_JOB, clientJobs(), lookUpClientDownloadLinks(extractor())) });
  const retry: LookupRetryOptions = {
    maxAttempts: config.jobs.downloadMaxAttempts,
    retryBaseDelayMs: config.jobs.downloadRetryBaseMs,
    retryMaxDelayMs: Math.max(config.jobs.downloadRetryBaseMs, 5 * 60_000),
  };

  container.register(LOOKUP_TOKENS.infoJobCommands, single(() => new CommandHandler(store(), infoJobDecider, INFO_JOB_CATEGORY, ids())));
  container.register(LOOKUP_TOKENS.clientDownloadJobCommands, single(() => new CommandHandler(store(), clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, ids())));
  container.register(LOOKUP_TOKENS.lookupJobReadModel, single(() => new PostgresLookupJobReadModel(resolve<Knex>(TOKENS.database))));

  container.register(LOOKUP_TOKENS.submitInfo, single(() =>
    new SubmitLookupJob<InfoJobDetails>('info', accounts(), (job, context) =>
      infoJobs().handle(
        job.jobId,
        { type: 'RequestInfo', data: { jobId: job.jobId, accountId: job.accountId, url: job.url, videoUrl: job.details.videoUrl, includeAudioTracks: job.details.includeAudioTracks, expiresAt: job.expiresAt, now: job.now } },
        context,
      ),
    ids(), clock(), config.lookups.infoJobTtlSeconds * 1000),
  ));
  container.register(LOOKUP_TOKENS.submitClientDownload, single(() =>
    new SubmitLookupJob<{ platform: ClientDownloadPlatform; canonicalUrl: string }>('client_download', accounts(), (job, context) =>
      clientJobs().handle(
        job.jobId,
        { type: 'RequestClientDownload', data: { jobId: job.jobId, accountId: job.accountId, url: job.url, canonicalUrl: job.details.canonicalUrl, platform: job.details.platform, expiresAt: job.expiresAt, now: job.now } },
        context,
      ),
    ids(), clock(), config.lookups.clientDownloadJobTtlSeconds * 1000),
  ));
  container.register(LOOKUP_TOKENS.getInfoJob, single(() =>
    new GetLookupJob('info', readModel(), async (jobId) => lookupJobViewFromState('info', (await infoJobs().load(jobId)).state), clock(), container.resolve(ChargeVisibility)),
  ));
  container.register(LOOKUP_TOKENS.getClientDownloadJob, single(() =>
    new GetLookupJob('client-download', readModel(), async (jobId) => lookupJobViewFromState('client-download', (await clientJobs().load(jobId)).state), clock(), container.resolve(ChargeVisibility)),
  ));
  container.register(ListChannel, single(() =>
    new ListChannel(
      accounts(), extractor(), ids(), clock(),
      { perAccount: config.lookups.channelListingsPerAccount, overall: config.lookups.channelListingsMax, listingTimeoutMs: config.lookups.channelListingTimeoutSeconds * 1000 },
      resolve<AccountReadProgress>(TOKENS.accountReadProgress),
    ),
  ));
  container.register(LOOKUP_TOKENS.settleLookupBilling, single(() => new SettleLookupBilling(accounts(), clock(), store(), resolve<Anomalies>(TOKENS.anomalies))));
  container.register(LOOKUP_TOKENS.runInfoJob, single(() => new RunLookupJob<VideoInfo>('info lookup', lookupJobSteps(INFO_JOB, infoJobs(), lookUpVideoInfo(extractor())), settle(), clock(), logger, retry)));
  container.register(LOOKUP_TOKENS.runClientDownloadJob, single(() =>
    new RunLookupJob<ClientDownloadInfo>('client-download lookup', lookupJobSteps(CLIENT_DOWNLOAD_JOB, clientJobs(), lookUpClientDownloadLinks(extractor())), settle(), clock(), logger, retry),
  ));
  container.register(ReleaseOrphanedLookup, single(() =>
    new ReleaseOrphanedLookup(accounts(), clock(), {
      graceMs: config.jobs.reservationGraceMs,
      listingTimeoutMs: config.lookups.channelListingTimeoutSeconds * 1000,
      jobs: jobSteps(),
    }),
  ));
  container.register(ReconcilePendingLookups, single(() =>
    new ReconcilePendingLookups(
      store(), new PostgresPendingLookupAccounts(resolve<Knex>(TOKENS.database)), jobSteps(), accounts(), settle(), container.resolve(ReleaseOrphanedLookup), clock(), logger, config.jobs.pendingLookupLimitMs,
    ),
  ));
}

export function lookupRouters(container: DependencyContainer, validation: RequestValidation, urls: UrlPolicies): Router[] {
  return [
    infoRoutes({ submitInfo: container.resolve(LOOKUP_TOKENS.submitInfo), getInfoJob: container.resolve(LOOKUP_TOKENS.getInfoJob), validation, urls }),
    listChannelRoutes({ listChannel: container.resolve(ListChannel), validation, urls }),
    clientDownloadRoutes({
      submitClientDownload: container.resolve(LOOKUP_TOKENS.submitClientDownload),
      getClientDownloadJob: container.resolve(LOOKUP_TOKENS.getClientDownloadJob),
      validation,
      urls,
    }),
  ];
}

type Handler = (message: JobMessage, delivery: Delivery) => Promise<WorkOutcome>;

/** The work kinds of lookups and their handlers; the service makes a queue consumer of each. */
export function lookupWorkHandlers(container: DependencyContainer, config: Config): Array<{ kind: WorkKind; handler: Handler; concurrency: number; maxDeliver: number }> {
  const runInfo = container.resolve<RunLookupJob<VideoInfo>>(LOOKUP_TOKENS.runInfoJob);
  const runClient = container.resolve<RunLookupJob<ClientDownloadInfo>>(LOOKUP_TOKENS.runClientDownloadJob);
  const releaseOrphan = container.resolve(ReleaseOrphanedLookup);
  // Only a backstop, as for downloads: attempts are counted in the job stream, outages of this service's own
  // infrastructure are retried with backoff, and the reconciler ends whatever stays pending past its bound.
  const maxDeliver = 1_000;
  return [
    { kind: 'info', handler: (message, delivery) => runInfo.handle(message, delivery), concurrency: config.jobs.workerConcurrency, maxDeliver },
    { kind: 'client-download', handler: (message, delivery) => runClient.handle(message, delivery), concurrency: config.jobs.workerConcurrency, maxDeliver },
    { kind: 'lookup-reservation', handler: (message) => releaseOrphan.handle(message), concurrency: 2, maxDeliver: 1_000 },
  ];
}

