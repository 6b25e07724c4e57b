import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ProgressReports } from '../../application/ports/download-progress.js';
import type { Logger } from '../../application/ports/logger.js';
import type { Config } from '../config/config.js';
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
import { type Storage, openStorage } from '../database/open-storage.js';
import { RandomIds } from '../system/random-ids.js';
import { SystemClock } from '../system/system-clock.js';
import { Container } from './container.js';
import { FEATURES } from '../features/features.js';
import type { Overrides } from './overrides.js';
import { TOKENS } from './tokens.js';

/**
 * The composition root: the one place where adapters are chosen for ports, then each
 * feature registers its own. Resources that need I/O to start (the database, the event
 * store) are opened here; `close` releases them.
 */
export async function createContainer(
  config: Config,
  logger: Logger,
  overrides: Overrides = {},
): Promise<{ container: Container; close: () => Promise<void> }> {
  const container = Container.create();
  const storage = await openStorage(config.storage, config.mode);
  registerResources(container, storage, config, logger, overrides);
  container.value(TOKENS.fileStore, await createFileStore(config.storage));
  const extractors = registerExtractors(container, config, logger, overrides);
  for (const feature of FEATURES) feature.register?.({ container, config, logger, overrides });
  return {
    container,
    async close() {
      await extractors.close();
      await storage.close();
    },
  };
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
  c.value(TOKENS.progressReports, { report: () => undefined } satisfies ProgressReports);
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
