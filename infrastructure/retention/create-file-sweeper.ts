import type { Knex } from 'knex';
import type { DependencyContainer } from 'tsyringe';
import { CommandHandler } from '../../application/command-handler.js';
import type { Clock } from '../../application/ports/clock.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { FileStore } from '../../application/ports/file-store.js';
import type { IdGenerator } from '../../application/ports/id-generator.js';
import type { Logger } from '../../application/ports/logger.js';
import { SweepExpiredFiles } from '../../application/processes/sweep-expired-files.js';
import { DOWNLOAD_JOB_CATEGORY } from '../../domain/download-job/decider.js';
import { fileRetentionDecider } from '../../domain/file-retention/decider.js';
import type { RetentionSettings } from '../config/sections/retention.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { TOKENS } from '../container.js';
import { PostgresExclusiveLock } from '../postgres/postgres-exclusive-lock.js';
import { PostgresExpiredFiles } from '../postgres/postgres-expired-files.js';
import type { Storage } from '../storage/open-storage.js';
import { FileSweeper } from './file-sweeper.js';

/** The sweeper role's parts, on the container's store, files and database. */
export function createFileSweeper(container: DependencyContainer, settings: RetentionSettings, storage: Pick<StorageSettings, 'databaseUrl'>, logger: Logger): FileSweeper {
  const retention = new CommandHandler(container.resolve<EventStore>(TOKENS.eventStore), fileRetentionDecider, DOWNLOAD_JOB_CATEGORY, container.resolve<IdGenerator>(TOKENS.ids));
  const sweep = new SweepExpiredFiles(
    new PostgresExpiredFiles(container.resolve<Knex>(TOKENS.database)),
    container.resolve<FileStore>(TOKENS.fileStore),
    retention,
    container.resolve<Clock>(TOKENS.clock),
    logger,
    { retentionSeconds: settings.fileRetentionSeconds, batchSize: 100 },
  );
  const { acquireLock } = container.resolve<Storage>(TOKENS.storage);
  const lock = new PostgresExclusiveLock({ connectionString: storage.databaseUrl, key: 'sweeper:file-retention', logger, acquireLock });
  return new FileSweeper(lock, sweep, logger, settings.fileSweepIntervalSeconds * 1000);
}
