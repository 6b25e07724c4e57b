import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import type { ApiKeySecrets } from '../../../application/ports/api-key-secrets.js';
import type { Logger } from '../../../application/ports/logger.js';
import { Container } from '../../../infrastructure/composition/container.js';
import type { Overrides } from '../../../infrastructure/composition/overrides.js';
import { processorOptions } from '../../../infrastructure/composition/processor-options.js';
import { registerExtractor } from '../../../infrastructure/composition/register-extractor.js';
import { registerWorkQueue } from '../../../infrastructure/composition/register-work-queue.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { type Config, type Role, loadConfig } from '../../../infrastructure/config/config.js';
import { DEFAULT_PLAN_CATALOG } from '../../../infrastructure/config/plan-catalog.js';
import type { Storage } from '../../../infrastructure/database/open-storage.js';
import { openEmbeddedDatabase } from '../../../infrastructure/embedded/embedded-database.js';
import { inProcessLocks } from '../../../infrastructure/embedded/in-process-locks.js';
import { PgliteChannelListener } from '../../../infrastructure/embedded/pglite-channel-listener.js';
import { PglitePreparedReads } from '../../../infrastructure/embedded/pglite-prepared-reads.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { FEATURES, READ_MODEL_SCHEMA } from '../../../infrastructure/features/features.js';
import { createFileStore } from '../../../infrastructure/files/create-file-store.js';
import { SignedDownloadLinks } from '../../../infrastructure/files/signed-download-links.js';
import { TemporaryWorkDirs } from '../../../infrastructure/files/temporary-work-dirs.js';
import { MetricAnomalies } from '../../../infrastructure/observability/metric-anomalies.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { migrateReadModels } from '../../../infrastructure/postgres/read-model-schema.js';
import { LeasedRateLimitStore } from '../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { MemoryWindowCounter } from '../../../infrastructure/rate-limits/memory-window-counter.js';
import { startApiRole } from '../../../infrastructure/roles/api-role.js';
import { startProjectorRole } from '../../../infrastructure/roles/projector-role.js';
import type { RoleContext } from '../../../infrastructure/roles/role-context.js';
import { ApiKeyCrypto } from '../../../infrastructure/security/api-key-crypto.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';

/** The API and the projector in this process, on an in-memory event store and read models in an in-memory database. */
export interface InMemoryService {
  /** The API's base address (http://127.0.0.1:port). */
  url: string;
  store: InMemoryEventStore;
  secrets: ApiKeySecrets;
  /** Resolves once the read models reflect every event appended so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

const ROLES: ReadonlySet<Role> = new Set(['api', 'projector']);

/**
 * Every feature registers, projects and serves as in the service; only the storage differs (the event store in
 * memory, PGlite in memory for the read models), and no worker runs, so what a request appended stays as it was.
 */
export async function startInMemoryService(overrides: Overrides = {}): Promise<InMemoryService> {
  const directory = await mkdtemp(path.join(tmpdir(), 'api-specification-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: directory,
    WORK_DIR: path.join(directory, 'work'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
  });
  const storage = await openInMemoryStorage();
  const logger = createLogger(config.observability.logLevel);
  const container = Container.create();
  const secrets = registerAdapters(container, { config, storage, logger, overrides });
  container.value(TOKENS.fileStore, await createFileStore(config.storage));
  const extractors = registerExtractor(container, config, logger, overrides);
  const queue = await registerWorkQueue(container, config, ROLES, storage, logger);
  container.value(TOKENS.rateLimitStore, new LeasedRateLimitStore(new MemoryWindowCounter(), 0));
  for (const feature of FEATURES) feature.register?.({ container, config, logger, overrides });
  container.seal();
  const context: RoleContext = {
    container,
    config,
    logger,
    overrides,
    queue,
    processorOptions: processorOptions(config, storage, logger),
    readiness: {},
  };
  const projector = await startProjectorRole(context);
  const api = await startApiRole(context);
  return {
    url: api.url,
    store: storage.eventStore as InMemoryEventStore,
    secrets,
    settle: () => projector.projections.waitUntilCaughtUp(null, { timeoutMs: 20_000 }),
    async stop() {
      await api.stop();
      await projector.stop();
      await queue.close();
      await extractors?.close();
      await storage.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function openInMemoryStorage(): Promise<Storage> {
  const embedded = await openEmbeddedDatabase(null);
  await migrateReadModels(embedded.db, READ_MODEL_SCHEMA);
  const eventStore = new InMemoryEventStore();
  return {
    database: embedded.db,
    reads: new PglitePreparedReads(embedded.db),
    eventStore,
    acquireLock: inProcessLocks(),
    description: 'in memory',
    readinessChecks: {},
    listen: (channel, handlers) => new PgliteChannelListener(embedded.pglite, channel, handlers),
    async close() {
      await eventStore.close();
      await embedded.close();
    },
  };
}

/** The adapters the composition root registers before the features, with fixed keys in place of the master key's. */
function registerAdapters(
  c: Container,
  { config, storage, logger, overrides }: { config: Config; storage: Storage; logger: Logger; overrides: Overrides },
): ApiKeySecrets {
  const metrics = new Registry();
  const secrets = new ApiKeyCrypto(Buffer.alloc(32, 1));
  c.value(TOKENS.logger, logger);
  c.value(TOKENS.clock, overrides.clock ?? new SystemClock());
  c.value(TOKENS.ids, new RandomIds());
  c.value(TOKENS.storage, storage);
  c.value(TOKENS.eventStore, storage.eventStore);
  c.value(TOKENS.database, storage.database);
  c.value(TOKENS.metrics, metrics);
  c.value(TOKENS.anomalies, new MetricAnomalies(metrics, logger));
  c.value(TOKENS.planCatalog, DEFAULT_PLAN_CATALOG);
  c.value(TOKENS.apiKeySecrets, secrets);
  c.value(
    TOKENS.downloadLinks,
    new SignedDownloadLinks(Buffer.alloc(32, 2), 'http://127.0.0.1', 3600, config.retention.fileRetentionSeconds),
  );
  c.value(TOKENS.workDirs, new TemporaryWorkDirs(config.storage.workDir));
  return secrets;
}
