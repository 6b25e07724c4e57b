import 'reflect-metadata';
import { rebuildProjections } from '../processing/rebuild.js';
import { loadConfig } from '../config/config.js';
import { TOKENS } from '../composition/tokens.js';
import { createContainer } from '../composition/create-container.js';
import { createLogger } from '../observability/create-logger.js';
import { PROJECTIONS } from '../features/features.js';

/**
 * `npm run rebuild-projections`: replays the event store into new copies of
 * every read model's tables and swaps them in; the projector may keep running.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.observability.logLevel);
  const { container, close } = await createContainer(config, logger);
  try {
    await rebuildProjections(PROJECTIONS, {
      db: container.resolve(TOKENS.database),
      store: container.resolve(TOKENS.eventStore),
      connectionString: config.storage.databaseUrl,
      acquireLock: container.resolve(TOKENS.storage).acquireLock,
      logger,
    });
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
