import { Registry, collectDefaultMetrics } from 'prom-client';
import { type DependencyContainer, container as rootContainer, instanceCachingFactory } from 'tsyringe';
import { AccountAdministration } from '../application/accounts/account-administration.js';
import type { AccountCommandHandler } from '../application/accounts/account-commands.js';
import { Authenticate } from '../application/accounts/authenticate.js';
import { ChargeVisibility } from '../application/accounts/charge-visibility.js';
import { GetAccount } from '../application/accounts/get-account.js';
import { ReplayAccountLedger } from '../application/audit/replay-account-ledger.js';
import { CommandHandler } from '../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../application/downloads/download-job-commands.js';
import { GetDownloadJob } from '../application/downloads/get-download-job.js';
import { SubmitDownload } from '../application/downloads/submit-download.js';
import { VideoLookup } from '../application/downloads/video-lookup.js';
import type { ApiKeySecrets } from '../application/ports/api-key-secrets.js';
import type { Clock } from '../application/ports/clock.js';
import type { DownloadLinks } from '../application/ports/download-links.js';
import type { ProgressReports } from '../application/ports/download-progress.js';
import type { EventStore } from '../application/ports/event-store.js';
import type { Extractor } from '../application/ports/extractor.js';
import type { FileStore } from '../application/ports/file-store.js';
import type { IdGenerator } from '../application/ports/id-generator.js';
import type { JobCancellations } from '../application/ports/job-cancellations.js';
import type { Logger } from '../application/ports/logger.js';
import type { PlanCatalog } from '../application/ports/plan-catalog.js';
import type { AccountReadModel, DownloadJobReadModel } from '../application/ports/read-models.js';
import type { WorkDirs } from '../application/ports/work-dirs.js';
import { ReleaseOrphanedReservation } from '../application/processes/release-orphaned-reservation.js';
import { RunDownload } from '../application/processes/run-download.js';
import { RunningDownloads } from '../application/processes/running-downloads.js';
import { SettleDownloadBilling } from '../application/processes/settle-download-billing.js';
import { DeliverWebhook } from '../application/processes/deliver-webhook.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../domain/account/decider.js';
import { ACCOUNT_STATE_VERSION } from '../domain/account/state-version.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../domain/download-job/decider.js';
import type { Config } from './config/config.js';
import { loadPlanCatalog } from './config/plan-catalog.js';
import { registerLookups } from './lookups-composition.js';
import { PostgresExtractedInfoCache } from './extractor/warm/extracted-info-cache.js';
import { WarmExtractor } from './extractor/warm/warm-extractor.js';
import { warmExtractorOptions } from './extractor/warm/configure-warm-extractor.js';
import { type YtDlpSetup, createYtDlpExtractor } from './extractor/create-yt-dlp-extractor.js';
import { createFileStore } from './files/create-file-store.js';
import { SignedDownloadLinks } from './files/signed-download-links.js';
import { TemporaryWorkDirs } from './files/temporary-work-dirs.js';
import { PostgresAccountReadModel } from './postgres/postgres-account-read-model.js';
import { PostgresAccountReadProgress } from './postgres/postgres-account-read-progress.js';
import { PostgresDownloadJobReadModel } from './postgres/postgres-download-job-read-model.js';
import { migrateReadModels } from './postgres/read-model-schema.js';
import type { Anomalies } from '../application/ports/anomalies.js';
import { ReconcilePendingDownloads } from '../application/processes/reconcile-pending-downloads.js';
import { PostgresPendingDownloadAccounts } from './postgres/postgres-pending-download-accounts.js';
import { MetricAnomalies } from './observability/metric-anomalies.js';
import { ApiKeyCrypto } from './security/api-key-crypto.js';
import { deriveKey } from './security/derive-key.js';
import { loadMasterKey } from './security/master-key.js';
import { RandomIds } from './system/random-ids.js';
import { openStorage } from './storage/open-storage.js';
import { SystemClock } from './system/system-clock.js';
import type { ResolveHost } from './webhooks/checked-address-lookup.js';
import { createDeliverWebhook } from './webhooks/create-deliver-webhook.js';
import { API_KEY_REVOCATIONS_CHANNEL } from '../projections/accounts-projection.js';
import { DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL } from '../projections/download-job-view-changes.js';
import { SettledJobViews } from '../application/downloads/settled-job-views.js';
import { PostgresSnapshotStore } from './snapshots/postgres-snapshot-store.js';
import { RevocableKeyCache } from './security/revocable-key-cache.js';

/** Injection tokens for ports and shared resources; use cases are registered by class. */
export const TOKENS = {
  config: Symbol('Config'),
  logger: Symbol('Logger'),
  clock: Symbol('Clock'),
  ids: Symbol('IdGenerator'),
  eventStore: Symbol('EventStore'),
  database: Symbol('Database'),
  metrics: Symbol('MetricsRegistry'),
  planCatalog: Symbol('PlanCatalog'),
  apiKeySecrets: Symbol('ApiKeySecrets'),
  downloadLinks: Symbol('DownloadLinks'),
  fileStore: Symbol('FileStore'),
  workDirs: Symbol('WorkDirs'),
  extractor: Symbol('Extractor'),
  /** The yt-dlp setup (version, self-update), or null when a test replaced the extractor. */
  ytDlp: Symbol('YtDlpSetup'),
  accountCommands: Symbol('AccountCommandHandler'),
  downloadJobCommands: Symbol('DownloadJobCommandHandler'),
  accountReadModel: Symbol('AccountReadModel'),
  accountReadProgress: Symbol('AccountReadProgress'),
  downloadJobReadModel: Symbol('DownloadJobReadModel'),
  storage: Symbol('Storage'),
  anomalies: Symbol('Anomalies'),
  keyRevocations: Symbol('KeyRevocationListener'),
  jobViewChanges: Symbol('JobViewChangeListener'),
  warmExtractor: Symbol('WarmExtractor'),
  /** Registered by the service once its work queue is open. */
  jobCancellations: Symbol('JobCancellations'),
  /** Workers' progress reports; a worker role replaces the default, which drops them, once its queue is open. */
  progressReports: Symbol('ProgressReports'),
} as const;

export interface Overrides {
  clock?: Clock;
  extractor?: Extractor;
  webhookResolver?: ResolveHost;
}

/**
 * The composition root: the one place where adapters are chosen for ports.
 * Resources that need I/O to start (the database, the event store) are opened
 * here; `close` releases them.
 */
export async function createContainer(config: Config, logger: Logger, overrides: Overrides = {}): Promise<{ container: DependencyContainer; close: () => Promise<void> }> {
  const container = rootContainer.createChildContainer();
  const storage = await openStorage(config.storage, config.mode);
  const { database, eventStore } = storage;
  const masterKey = loadMasterKey(config.security.masterKey, config.security.masterKeyFile);
  if (masterKey.generated) logger.warn({ file: config.security.masterKeyFile }, 'no MASTER_KEY set: generated a development master key');

  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });

  container.register(TOKENS.config, { useValue: config });
  container.register(TOKENS.logger, { useValue: logger });
  container.register(TOKENS.clock, { useValue: overrides.clock ?? new SystemClock() });
  container.register(TOKENS.ids, { useValue: new RandomIds() });
  container.register(TOKENS.eventStore, { useValue: eventStore });
  container.register(TOKENS.database, { useValue: database });
  container.register(TOKENS.storage, { useValue: storage });
  container.register(TOKENS.metrics, { useValue: metrics });
  container.register(TOKENS.planCatalog, { useValue: loadPlanCatalog(config.accounts.planCatalogFile) });
  container.register(TOKENS.apiKeySecrets, { useValue: new ApiKeyCrypto(deriveKey(masterKey.key, 'api-key-encryption')) });
  container.register(TOKENS.downloadLinks, {
    useValue: new SignedDownloadLinks(deriveKey(masterKey.key, 'download-links'), config.http.publicBaseUrl, config.retention.downloadLinkTtlSeconds, config.retention.fileRetentionSeconds),
  });
  container.register(TOKENS.fileStore, { useValue: createFileStore(config.storage) });
  container.register(TOKENS.workDirs, { useValue: new TemporaryWorkDirs(config.storage.workDir) });
  // Made when first needed, so the command-line tools never run yt-dlp.
  let ytDlpSetup: YtDlpSetup | null = null;
  container.register(TOKENS.ytDlp, { useFactory: instanceCachingFactory(() => (ytDlpSetup = overrides.extractor === undefined ? createYtDlpExtractor(config.extractor, logger, metrics) : null)) });
  // Helpers start on the first lookup, or when a role that looks videos up starts them (service.ts); CLIs never do.
  let warmExtractor: WarmExtractor | null = null;
  container.register(TOKENS.warmExtractor, {
    useFactory: instanceCachingFactory((c) => {
      const ytDlp = c.resolve<YtDlpSetup | null>(TOKENS.ytDlp);
      if (ytDlp === null || !warmHelpersFit(config)) return null;
      const extractedInfo = config.extractor.extractedInfoTtlSeconds > 0 ? new PostgresExtractedInfoCache(database, config.extractor.extractedInfoTtlSeconds * 1000) : undefined;
      warmExtractor = new WarmExtractor(ytDlp.extractor, warmExtractorOptions(config.extractor, ytDlp, logger, extractedInfo));
      return warmExtractor;
    }),
  });
  container.register(TOKENS.extractor, {
    useFactory: instanceCachingFactory(
      (c) => overrides.extractor ?? c.resolve<WarmExtractor | null>(TOKENS.warmExtractor) ?? (c.resolve<YtDlpSetup | null>(TOKENS.ytDlp) as YtDlpSetup).extractor,
    ),
  });
  container.register(TOKENS.accountReadModel, { useValue: new PostgresAccountReadModel(database, storage.reads) });
  container.register(TOKENS.accountReadProgress, { useValue: new PostgresAccountReadProgress(storage.reads, eventStore, config.accounts.readYourWritesWaitMs) });
  container.register(ChargeVisibility, { useFactory: instanceCachingFactory(() => new ChargeVisibility(container.resolve(TOKENS.accountReadProgress))) });
  container.register(TOKENS.downloadJobReadModel, { useValue: new PostgresDownloadJobReadModel(storage.reads) });
  container.register(TOKENS.anomalies, { useValue: new MetricAnomalies(metrics, logger) });
  container.register(TOKENS.progressReports, { useValue: { report: () => undefined } satisfies ProgressReports });

  const resolve = <T>(token: symbol): T => container.resolve<T>(token);
  container.register(TOKENS.accountCommands, {
    useFactory: instanceCachingFactory(() =>
      new CommandHandler(eventStore, accountDecider, ACCOUNT_CATEGORY, resolve<IdGenerator>(TOKENS.ids), {
        // Account streams never end: a busy account adds about 150,000 events a month.
        snapshots: config.accounts.snapshotAfterEvents === 0 ? undefined : {
          store: new PostgresSnapshotStore(database),
          version: ACCOUNT_STATE_VERSION,
          afterEvents: config.accounts.snapshotAfterEvents,
          onError: (error, stream) => logger.warn({ err: error, stream }, 'Account snapshot could not be read or stored; folding from the first event'),
        },
      }),
    ),
  });
  container.register(TOKENS.downloadJobCommands, {
    useFactory: instanceCachingFactory(() => new CommandHandler(eventStore, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, resolve<IdGenerator>(TOKENS.ids))),
  });

  const accounts = () => resolve<AccountCommandHandler>(TOKENS.accountCommands);
  const jobs = () => resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
  const clock = () => resolve<Clock>(TOKENS.clock);
  const ids = () => resolve<IdGenerator>(TOKENS.ids);
  const single = <T>(make: () => T) => ({ useFactory: instanceCachingFactory<T>(make) });

  container.register(AccountAdministration, single(() => new AccountAdministration(accounts(), resolve<PlanCatalog>(TOKENS.planCatalog), resolve<ApiKeySecrets>(TOKENS.apiKeySecrets), ids(), clock())));
  // Keys are cached only while the API role listens for revocations (see service.ts); until then every request looks its key up.
  const keyCache = new RevocableKeyCache(resolve<AccountReadModel>(TOKENS.accountReadModel), { ttlMs: config.security.apiKeyCacheTtlSeconds * 1000, maxEntries: 10_000 });
  container.register(TOKENS.keyRevocations, {
    useValue: storage.listen(API_KEY_REVOCATIONS_CHANNEL, {
      onNotification: (keyId) => keyCache.evict(keyId),
      onListening: () => keyCache.trust(),
      onLost: () => keyCache.distrust(),
    }),
  });
  container.register(Authenticate, single(() => new Authenticate(keyCache, resolve<ApiKeySecrets>(TOKENS.apiKeySecrets))));
  container.register(GetAccount, single(() => new GetAccount(resolve<AccountReadModel>(TOKENS.accountReadModel), clock())));
  container.register(ReplayAccountLedger, single(() => new ReplayAccountLedger(eventStore, resolve<AccountReadModel>(TOKENS.accountReadModel), clock())));
  container.register(VideoLookup, single(() => new VideoLookup(resolve<Extractor>(TOKENS.extractor), {
    ttlMs: config.lookups.metadataCacheTtlSeconds * 1000,
    maxEntries: 1000,
    concurrency: config.lookups.extractorConcurrency,
    maxPerRequester: config.lookups.queuePerAccount,
    maxWaiting: config.lookups.queueMax,
  })));
  container.register(SubmitDownload, single(() => new SubmitDownload(accounts(), jobs(), container.resolve(VideoLookup), ids(), clock())));
  // Finished jobs' views are kept only while the API role listens for the read models' changes (see service.ts).
  const settledViews = new SettledJobViews(10_000);
  container.register(TOKENS.jobViewChanges, {
    useValue: storage.listen(DOWNLOAD_JOB_VIEW_CHANGES_CHANNEL, {
      onNotification: (jobId) => settledViews.changed(jobId),
      onListening: () => settledViews.trust(),
      onLost: () => settledViews.distrust(),
    }),
  });
  container.register(GetDownloadJob, single(() => new GetDownloadJob(resolve<DownloadJobReadModel>(TOKENS.downloadJobReadModel), jobs(), container.resolve(ChargeVisibility), settledViews)));
  container.register(RunDownload, single(() =>
    new RunDownload(jobs(), resolve<Extractor>(TOKENS.extractor), resolve<FileStore>(TOKENS.fileStore), resolve<WorkDirs>(TOKENS.workDirs), clock(), logger, {
      maxAttempts: config.jobs.downloadMaxAttempts,
      retryBaseDelayMs: config.jobs.downloadRetryBaseMs,
      retryMaxDelayMs: Math.max(config.jobs.downloadRetryBaseMs, 5 * 60_000),
    }, container.resolve(RunningDownloads), resolve<ProgressReports>(TOKENS.progressReports)),
  ));
  container.register(RunningDownloads, single(() => new RunningDownloads()));
  container.register(SettleDownloadBilling, single(() => new SettleDownloadBilling(jobs(), accounts(), clock(), eventStore, resolve<Anomalies>(TOKENS.anomalies))));
  container.register(ReleaseOrphanedReservation, single(() => new ReleaseOrphanedReservation(jobs(), accounts(), clock(), config.jobs.reservationGraceMs)));
  container.register(ReconcilePendingDownloads, single(() =>
    new ReconcilePendingDownloads(eventStore, jobs(), accounts(), new PostgresPendingDownloadAccounts(database), container.resolve(SettleDownloadBilling), container.resolve(ReleaseOrphanedReservation), clock(), logger, config.jobs.pendingDownloadLimitMs,
      container.isRegistered(TOKENS.jobCancellations) ? resolve<JobCancellations>(TOKENS.jobCancellations) : null),
  ));
  container.register(DeliverWebhook, single(() =>
    createDeliverWebhook(config.webhooks, {
      store: eventStore, db: database, logger, metrics, jobs: jobs(), clock: clock(), ids: ids(),
      links: resolve<DownloadLinks>(TOKENS.downloadLinks), secrets: resolve<ApiKeySecrets>(TOKENS.apiKeySecrets), resolveHost: overrides.webhookResolver,
      charges: container.resolve(ChargeVisibility),
    }),
  ));
  registerLookups(container, config, logger);

  return {
    container,
    async close() {
      await warmExtractor?.close();
      await ytDlpSetup?.egress.close();
      await storage.close();
    },
  };
}


/**
 * The warm helpers take one cookie jar and one proxy (the `*` entries). Cookie or proxy pools, or settings for one
 * platform, need the command line's per-run rotation and cookie write-back, so lookups then run there.
 */
function warmHelpersFit(config: Config): boolean {
  if (config.extractor.warmExtractorProcesses === 0) return false;
  const { cookies, proxies } = config.extractor.platformAccess;
  const single = (pools: Readonly<Record<string, readonly string[]>>) => Object.entries(pools).every(([platform, pool]) => platform === '*' && pool.length <= 1);
  return single(cookies) && single(proxies);
}
