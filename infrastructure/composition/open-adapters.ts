import type { Knex } from 'knex';
import type { Logger } from '../../application/ports/logger.js';
import type { RateLimitStore } from '../../application/ports/rate-limit-store.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { Config, ServiceMode } from '../config/config.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { type Storage, openEmbeddedStorage, openServerStorage } from '../database/open-storage.js';
import type { CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';
import { LeasedRateLimitStore } from '../rate-limits/leased-rate-limit-store.js';
import { MemoryWindowCounter } from '../rate-limits/memory-window-counter.js';
import { PostgresWindowCounter } from '../rate-limits/postgres-window-counter.js';
import { untilReachable } from '../system/until-reachable.js';
import { InProcessWorkQueue } from '../work-queue/in-process-work-queue.js';

// Where the composition root picks, by mode, the adapters that need I/O to open; the rest sees only their ports.

/** PGlite in a directory in embedded mode, the servers otherwise; `readModelSchema` creates the read models' tables. */
export async function openStorage(
  storage: StorageSettings,
  mode: ServiceMode,
  readModelSchema: readonly string[],
  logger: Logger,
): Promise<Storage> {
  return mode === 'embedded'
    ? openEmbeddedStorage(storage.embeddedDataDir, readModelSchema, storage.embeddedTemplateDir)
    : untilReachable(() => openServerStorage(storage, readModelSchema), 'opening PostgreSQL', logger);
}

export interface WorkQueueSettings {
  /** JetStream when set; otherwise the in-process queue in the service's own database. */
  natsUrl: string | null;
  natsStream: string;
  /** How many servers of a cluster keep the stream. */
  natsStreamReplicas: number;
  subjects: string[];
  connectionName: string;
}

/** JetStream's adapter and the NATS client load only when used: embedded mode never needs their memory. */
export async function openWorkQueue(
  settings: WorkQueueSettings,
  processor: CheckpointedProcessorOptions,
  logger: Logger,
): Promise<WorkQueue> {
  if (settings.natsUrl === null) return InProcessWorkQueue.open({ processor, logger, exclusive: true });
  const { JetStreamWorkQueue } = await import('../nats/jetstream-work-queue.js');
  return JetStreamWorkQueue.open({
    url: settings.natsUrl,
    stream: settings.natsStream,
    replicas: settings.natsStreamReplicas,
    subjects: settings.subjects,
    connectionName: settings.connectionName,
    logger,
    processor,
  });
}

/** Embedded, one process serves every request, so its memory is the shared count and nothing is leased. */
export async function openRateLimitStore(config: Config, database: Knex, logger: Logger): Promise<RateLimitStore> {
  if (config.mode === 'embedded') return new LeasedRateLimitStore(new MemoryWindowCounter(), 0);
  const counter = await untilReachable(
    () => PostgresWindowCounter.open(database),
    'opening the rate limits count',
    logger,
  );
  // Windows are the database's seconds, shared by every instance whatever their own clocks say.
  return new LeasedRateLimitStore(counter, config.rateLimits.leasePercent / 100, () => counter.now());
}
