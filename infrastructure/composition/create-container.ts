import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ProgressReports } from '../../application/ports/download-progress.js';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { Config, Role } from '../config/config.js';
import { loadPlanCatalog } from '../config/plan-catalog.js';
import { type YtDlpSetup, createYtDlpExtractor } from '../extractor/create-yt-dlp-extractor.js';
import { warmExtractorOptions } from '../extractor/warm/configure-warm-extractor.js';
import { PostgresExtractedInfoCache } from '../extractor/warm/extracted-info-cache.js';
import { WarmExtractor } from '../extractor/warm/warm-extractor.js';
import { createFileStore } from '../files/create-file-store.js';
import { SignedDownloadLinks } from '../files/signed-download-links.js';
import { TemporaryWorkDirs } from '../files/temporary-work-dirs.js';
import { MetricAnomalies } from '../observability/metric-anomalies.js';
import { ApiKeyCrypto } from '../security/api-key-crypto.js';
import { deriveKey } from '../security/derive-key.js';
import { loadMasterKey } from '../security/master-key.js';
import type { Storage } from '../database/open-storage.js';
import { RandomIds } from '../system/random-ids.js';
import { SystemClock } from '../system/system-clock.js';
import { Container } from './container.js';
import { FEATURES } from '../features/features.js';
import { openRateLimitStore, openStorage } from './open-adapters.js';
import type { Overrides } from './overrides.js';
import { registerWorkQueue } from './register-work-queue.js';
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
  const storage = await openStorage(config.storage, config.mode);
  let extractors: { close(): Promise<void> } | null = null;
  let queue: WorkQueue | null = null;
  const close = async () => {
    await queue?.close();
    await extractors?.close();
    await storage.close();
  };
  try {
    registerResources(container, storage, config, logger, overrides);
    container.value(TOKENS.fileStore, await createFileStore(config.storage));
    extractors = registerExtractors(container, config, logger, overrides);
    if (roles.size > 0) queue = await registerWorkQueue(container, config, roles, storage, logger);
    else container.value(TOKENS.progressReports, { report: () => undefined } satisfies ProgressReports);
    if (roles.has('api')) container.value(TOKENS.rateLimitStore, await openRateLimitStore(config, storage.database));
    for (const feature of FEATURES) feature.register?.({ container, config, logger, overrides });
    container.seal();
    return { container, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function registerResources(c: Container, storage: Storage, config: Config, logger: Logger, overrides: Overrides): void {
  const masterKey = loadMasterKey(config.security.masterKey, config.security.masterKeyFile);
  if (masterKey.generated)
    logger.warn({ file: config.security.masterKeyFile }, 'no MASTER_KEY set: generated a development master key');
  const metrics = new Registry();
  // The event-loop lag histogram samples on a timer: at prom-client's 10 ms it woke an idle service 100 times a second.
  collectDefaultMetrics({ register: metrics, eventLoopMonitoringPrecision: 1_000 });
  c.value(TOKENS.logger, logger);
  c.value(TOKENS.clock, overrides.clock ?? new SystemClock());
  c.value(TOKENS.ids, new RandomIds());
  c.value(TOKENS.storage, storage);
  c.value(TOKENS.eventStore, storage.eventStore);
  c.value(TOKENS.database, storage.database);
  c.value(TOKENS.metrics, metrics);
  c.value(TOKENS.anomalies, new MetricAnomalies(metrics, logger));
  c.value(TOKENS.planCatalog, loadPlanCatalog(config.accounts.planCatalogFile));
  c.value(TOKENS.apiKeySecrets, new ApiKeyCrypto(deriveKey(masterKey.key, 'api-key-encryption')));
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

/** Made when first needed, so the command-line tools never run yt-dlp. */
function registerExtractors(
  c: Container,
  config: Config,
  logger: Logger,
  overrides: Overrides,
): { close(): Promise<void> } {
  let ytDlpSetup: YtDlpSetup | null = null;
  c.singleton(
    TOKENS.ytDlp,
    () =>
      (ytDlpSetup =
        overrides.extractor === undefined
          ? createYtDlpExtractor(config.extractor, logger, c.resolve(TOKENS.metrics))
          : null),
  );
  // Helpers start on the first lookup, or when a role that looks videos up starts them; CLIs never do.
  let warmExtractor: WarmExtractor | null = null;
  c.singleton(TOKENS.warmExtractor, () => {
    const ytDlp = c.resolve(TOKENS.ytDlp);
    if (ytDlp === null || !warmHelpersFit(config)) return null;
    const extractedInfo =
      config.extractor.extractedInfoTtlSeconds > 0
        ? new PostgresExtractedInfoCache(c.resolve(TOKENS.database), config.extractor.extractedInfoTtlSeconds * 1000)
        : undefined;
    warmExtractor = new WarmExtractor(
      ytDlp.extractor,
      warmExtractorOptions(config.extractor, ytDlp, logger, extractedInfo),
    );
    return warmExtractor;
  });
  c.singleton(
    TOKENS.extractor,
    () => overrides.extractor ?? c.resolve(TOKENS.warmExtractor) ?? commandLineExtractor(c.resolve(TOKENS.ytDlp)),
  );
  return {
    async close() {
      await warmExtractor?.close();
      await ytDlpSetup?.egress.close();
    },
  };
}

function commandLineExtractor(ytDlp: YtDlpSetup | null): YtDlpSetup['extractor'] {
  if (ytDlp === null) throw new Error('no extractor: yt-dlp was replaced but no extractor was given');
  return ytDlp.extractor;
}

/**
 * A helper keeps one cookie jar for its life: a platform whose cookie pool holds several jars (several accounts,
 * rotated run by run) needs the command line's rotation, so lookups then run there. Proxy pools and per-platform
 * entries are served by helpers (see PlatformAccess.helperChoice).
 */
function warmHelpersFit(config: Config): boolean {
  if (config.extractor.warmExtractorProcesses === 0) return false;
  return Object.values(config.extractor.platformAccess.cookies).every((pool) => pool.length <= 1);
}
