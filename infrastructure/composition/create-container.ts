import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ProgressReports } from '../../application/ports/download-progress.js';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { Config, Role } from '../config/config.js';
import { loadPlanCatalog } from '../config/plan-catalog.js';
import { createFileStore } from '../files/create-file-store.js';
import { SignedDownloadLinks } from '../files/signed-download-links.js';
import { TemporaryWorkDirs } from '../files/temporary-work-dirs.js';
import { MetricAnomalies } from '../observability/metric-anomalies.js';
import { ApiKeyCrypto } from '../security/api-key-crypto.js';
import { deriveKey } from '../security/derive-key.js';
import type { LoadedMasterKey } from '../security/master-key.js';
import { configuredMasterKeys } from '../security/personal-data/service-master-keys.js';
import { PostgresPersonalDataErasure } from '../event-store/sealing/postgres-personal-data-erasure.js';
import type { PersonalDataSealing } from '../security/personal-data/personal-data-sealing.js';
import type { Storage } from '../database/open-storage.js';
import { RandomIds } from '../system/random-ids.js';
import { SystemClock } from '../system/system-clock.js';
import { Container } from './container.js';
import { ERASURE_STATEMENTS, FEATURES, READ_MODEL_SCHEMA } from '../features/features.js';
import { openRateLimitStore, openStorage } from './open-adapters.js';
import type { Overrides } from './overrides.js';
import { registerExtractor } from './register-extractor.js';
import { registerWorkQueue } from './register-work-queue.js';
import { sealPersonalData } from './seal-personal-data.js';
import { TOKENS } from './tokens.js';

export interface ContainerOptions {
  overrides?: Overrides;
  /**
   * The roles this process will run: with any, the work queue opens (with its cancellations and progress reports), and
   * with `api` the request-rate store. The command-line tools run none.
   */
  roles?: ReadonlySet<Role>;
}

/**
 * The composition root: the one place where adapters are chosen for ports, then each feature registers its own, all
 * before any role starts; the container is then sealed, so roles only resolve. Resources that need I/O to start (the
 * database, the event store, the work queue) are opened here; `close` releases them.
 */
export async function createContainer(
  config: Config,
  logger: Logger,
  options: ContainerOptions = {},
): Promise<{ container: Container; close: () => Promise<void> }> {
  const { overrides = {}, roles = new Set<Role>() } = options;
  const container = Container.create();
  const { current: masterKey, previous: previousMasterKeys } = configuredMasterKeys(config);
  if (masterKey.generated)
    logger.warn({ file: config.security.masterKeyFile }, 'no MASTER_KEY set: generated a development master key');
  const opened = await openStorage(config.storage, config.mode, READ_MODEL_SCHEMA, logger);
  const { storage, sealing } = await sealPersonalData(
    opened,
    masterKey.key,
    previousMasterKeys,
    config.storage.eventStoreUrl === null,
  ).catch(async (error) => {
    await opened.close();
    throw error;
  });
  let extractors: { close(): Promise<void> } | null = null;
  let queue: WorkQueue | null = null;
  const close = async () => {
    await queue?.close();
    await extractors?.close();
    await storage.close();
  };
  try {
    registerResources(container, { storage, sealing, masterKey, previousMasterKeys }, config, logger, overrides);
    container.value(TOKENS.fileStore, await createFileStore(config.storage));
    extractors = registerExtractor(container, config, logger, overrides);
    if (roles.size > 0) queue = await registerWorkQueue(container, config, roles, storage, logger);
    else container.value(TOKENS.progressReports, { report: () => undefined } satisfies ProgressReports);
    if (roles.has('api'))
      container.value(TOKENS.rateLimitStore, await openRateLimitStore(config, storage.database, logger));
    for (const feature of FEATURES) feature.register?.({ container, config, logger, overrides });
    container.seal();
    return { container, close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface Resources {
  storage: Storage;
  sealing: PersonalDataSealing;
  masterKey: LoadedMasterKey;
  previousMasterKeys: Buffer[];
}

function registerResources(
  c: Container,
  resources: Resources,
  config: Config,
  logger: Logger,
  overrides: Overrides,
): void {
  const { storage, sealing, masterKey, previousMasterKeys } = resources;
  const metrics = new Registry();
  // The event-loop lag histogram samples on a timer: at prom-client's 10 ms it woke an idle service 100 times a second.
  collectDefaultMetrics({ register: metrics, eventLoopMonitoringPrecision: 1_000 });
  c.value(TOKENS.logger, logger);
  c.value(TOKENS.clock, overrides.clock ?? new SystemClock());
  c.value(TOKENS.ids, new RandomIds());
  c.value(TOKENS.storage, storage);
  c.value(TOKENS.eventStore, storage.eventStore);
  c.value(TOKENS.personalDataSealing, sealing);
  c.value(
    TOKENS.personalDataErasure,
    new PostgresPersonalDataErasure({
      db: storage.database,
      sealing,
      statements: ERASURE_STATEMENTS,
    }),
  );
  c.value(TOKENS.database, storage.database);
  c.value(TOKENS.metrics, metrics);
  c.value(TOKENS.anomalies, new MetricAnomalies(metrics, logger));
  c.value(TOKENS.planCatalog, loadPlanCatalog(config.accounts.planCatalogFile));
  c.value(
    TOKENS.apiKeySecrets,
    new ApiKeyCrypto(
      deriveKey(masterKey.key, 'api-key-encryption'),
      previousMasterKeys.map((key) => deriveKey(key, 'api-key-encryption')),
    ),
  );
  c.value(
    TOKENS.downloadLinks,
    new SignedDownloadLinks(
      deriveKey(masterKey.key, 'download-links'),
      config.http.publicBaseUrl,
      config.retention.downloadLinkTtlSeconds,
      config.retention.fileRetentionSeconds,
    ),
  );
  c.value(TOKENS.workDirs, new TemporaryWorkDirs(config.storage.workDir));
}
