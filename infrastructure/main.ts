import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ROLES, type Role, loadConfig } from './config/config.js';
import { createLogger } from './observability/create-logger.js';
import { keepYoungGenerationSmall } from './embedded/small-young-generation.js';
import type { RunningService } from './service.js';
import { untilReachable } from './system/until-reachable.js';

/**
 * `node build/infrastructure/main.js [--role api|projector|worker|sweeper ...]`:
 * every role by default; repeat --role to run a subset.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { role: { type: 'string', multiple: true } }, strict: true });
  const roles = new Set<Role>();
  for (const role of values.role ?? ROLES) {
    if (!(ROLES as readonly string[]).includes(role))
      throw new Error(`--role must be one of: ${ROLES.join(', ')} (got "${role}")`);
    roles.add(role as Role);
  }
  const config = loadConfig();
  if (config.mode === 'embedded') keepYoungGenerationSmall();
  // Loaded once the heap is configured: loading the service's modules is most of start-up's allocation.
  const { startService } = await import('./service.js');
  const logger = createLogger(config.observability.logLevel, { buffered: true });
  // Buffered lines are written out before any exit.
  const exit = (code: number) => logger.flush(() => process.exit(code));
  let service: RunningService | null = null;
  let stopRequested = false;
  const stop = (running: RunningService) =>
    running.stop().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) exit(1);
    logger.info({ signal }, 'shutting down');
    stopRequested = true;
    // A signal during start-up is honoured once the start ends, so nothing is left half started.
    if (service !== null) void stop(service);
  };
  // Listened for before starting: a process stopped while it starts (a deploy, a scale-down) still stops cleanly.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A server that drops out while the roles start (a restart, a failover) is waited for, not exited over: the opening of
  // the storage waits on its own, and this covers the steps after it. Nothing is retried once a stop is asked for.
  const starting = () => startService(config, roles, logger);
  service = await untilReachable(starting, 'starting the service', logger, { goOn: () => !stopRequested }).catch(
    async (error: unknown) => {
      await new Promise((resolve) => logger.flush(resolve));
      throw error;
    },
  );
  if (stopRequested) {
    await stop(service);
    return;
  }
  logger.info({ roles: [...roles] }, 'service started');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
