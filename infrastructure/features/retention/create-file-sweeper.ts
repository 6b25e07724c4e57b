import { CommandHandler } from '../../../application/command-handler.js';
import type { Logger } from '../../../application/ports/logger.js';
import { SweepExpiredFiles } from '../../../application/processes/sweep-expired-files.js';
import { DOWNLOAD_JOB_CATEGORY } from '../../../domain/download-job/decider.js';
import { fileRetentionDecider } from '../../../domain/file-retention/decider.js';
import type { Container } from '../../composition/container.js';
import { TOKENS } from '../../composition/tokens.js';
import type { RetentionSettings } from '../../config/sections/retention.js';
import type { StorageSettings } from '../../config/sections/storage.js';
import { PostgresExclusiveLock } from '../../postgres/postgres-exclusive-lock.js';
import { PostgresExpiredFiles } from '../../postgres/postgres-expired-files.js';
import { FileSweeper } from './file-sweeper.js';

/** The sweeper role's parts, on the container's store, files and database. */
export function createFileSweeper(
  container: Container,
  settings: RetentionSettings,
  storage: Pick<StorageSettings, 'databaseUrl'>,
  logger: Logger,
): FileSweeper {
  const { eventStore, database, acquireLock } = container.resolve(TOKENS.storage);
  const retention = new CommandHandler(
    eventStore,
    fileRetentionDecider,
    DOWNLOAD_JOB_CATEGORY,
    container.resolve(TOKENS.ids),
  );
  const sweep = new SweepExpiredFiles({
    expired: new PostgresExpiredFiles(database),
    files: container.resolve(TOKENS.fileStore),
    retention,
    clock: container.resolve(TOKENS.clock),
    logger,
    options: {
      retentionSeconds: settings.fileRetentionSeconds,
      batchSize: 100,
    },
  });
  const lock = new PostgresExclusiveLock({
    connectionString: storage.databaseUrl,
    key: 'sweeper:file-retention',
    logger,
    acquireLock,
  });
  return new FileSweeper(lock, sweep, logger, settings.fileSweepIntervalSeconds * 1000);
}
