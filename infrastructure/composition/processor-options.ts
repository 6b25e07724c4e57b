import type { Logger } from '../../application/ports/logger.js';
import type { Config } from '../config/config.js';
import type { Storage } from '../database/open-storage.js';
import type { CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';

/** What every checkpointed processor of this process (projections, the relay) runs on: the storage's database, store and locks. */
export function processorOptions(config: Config, storage: Storage, logger: Logger): CheckpointedProcessorOptions {
  return {
    db: storage.database,
    store: storage.eventStore,
    connectionString: config.storage.databaseUrl,
    acquireLock: storage.acquireLock,
    logger,
  };
}
