import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { AccountCommandHandler } from '../../application/accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import type { AccountReadProgress } from '../../application/ports/account-read-progress.js';
import type { Anomalies } from '../../application/ports/anomalies.js';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';
import type { Clock } from '../../application/ports/clock.js';
import type { ProgressReports } from '../../application/ports/download-progress.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { FileStore } from '../../application/ports/file-store.js';
import type { IdGenerator } from '../../application/ports/id-generator.js';
import type { Logger } from '../../application/ports/logger.js';
import type { PersonalDataErasure } from '../../application/ports/personal-data-erasure.js';
import type { PlanCatalog } from '../../application/ports/plan-catalog.js';
import type { RateLimitStore } from '../../application/ports/rate-limit-store.js';
import type { AccountReadModel, DownloadJobReadModel } from '../../application/ports/read-models.js';
import type { WorkDirs } from '../../application/ports/work-dirs.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { YtDlpSetup } from '../extractor/create-yt-dlp-extractor.js';
import type { WarmExtractor } from '../extractor/warm/warm-extractor.js';
import type { SignedDownloadLinks } from '../files/signed-download-links.js';
import type { Storage } from '../database/open-storage.js';
import type { BroadcastJobCancellations } from '../work-queue/broadcast-job-cancellations.js';
import { EXTRACTOR_CAPABILITIES } from './extractor-capabilities.js';
import type { PersonalDataSealing } from '../security/personal-data/personal-data-sealing.js';
import { token } from './token.js';

/** Tokens of the ports and resources that several features share; a feature's own tokens live with it. */
export const TOKENS = {
  logger: token<Logger>('Logger'),
  clock: token<Clock>('Clock'),
  ids: token<IdGenerator>('IdGenerator'),
  eventStore: token<EventStore>('EventStore'),
  database: token<Knex>('Database'),
  storage: token<Storage>('Storage'),
  /** The data keys that seal personal fields in events, and the master keys that wrap them. */
  personalDataSealing: token<PersonalDataSealing>('PersonalDataSealing'),
  personalDataErasure: token<PersonalDataErasure>('PersonalDataErasure'),
  metrics: token<Registry>('MetricsRegistry'),
  anomalies: token<Anomalies>('Anomalies'),
  planCatalog: token<PlanCatalog>('PlanCatalog'),
  apiKeySecrets: token<ApiKeySecrets>('ApiKeySecrets'),
  downloadLinks: token<SignedDownloadLinks>('DownloadLinks'),
  fileStore: token<FileStore>('FileStore'),
  workDirs: token<WorkDirs>('WorkDirs'),
  /** One token per capability of the extractor, keyed by its method: `TOKENS.extractor.probe` gives a VideoProber. */
  extractor: EXTRACTOR_CAPABILITIES,
  /** The yt-dlp setup (version, self-update), or null when a test replaced the extractor. */
  ytDlp: token<YtDlpSetup | null>('YtDlpSetup'),
  warmExtractor: token<WarmExtractor | null>('WarmExtractor'),
  accountCommands: token<AccountCommandHandler>('AccountCommandHandler'),
  downloadJobCommands: token<DownloadJobCommandHandler>('DownloadJobCommandHandler'),
  accountReadModel: token<AccountReadModel>('AccountReadModel'),
  accountReadProgress: token<AccountReadProgress>('AccountReadProgress'),
  downloadJobReadModel: token<DownloadJobReadModel>('DownloadJobReadModel'),
  /** In a process that runs roles: the composition root opens it before any role starts. */
  workQueue: token<WorkQueue>('WorkQueue'),
  /** In a process that runs roles, on the work queue's broadcasts. */
  jobCancellations: token<BroadcastJobCancellations>('JobCancellations'),
  /** Workers' progress reports, on the work queue's broadcasts; dropped in a process that runs no role. */
  progressReports: token<ProgressReports>('ProgressReports'),
  /** In a process that runs the api role: the shared count of requests per second. */
  rateLimitStore: token<RateLimitStore>('RateLimitStore'),
} as const;
