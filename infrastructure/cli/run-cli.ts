import type { Role } from '../config/config.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { createContainer } from '../composition/create-container.js';
import { findAdminEndpoint, runThroughAdminEndpoint } from '../admin/admin-endpoint-client.js';
import { createLogger } from '../observability/create-logger.js';
import type { CliCommand, CliOutput } from '../admin/cli-command.js';

const terminal: CliOutput = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/**
 * Runs a CLI where the data is. Server mode: against the servers, as every
 * process may. Embedded mode: inside the running service, through its admin
 * endpoint, since only one process may open the database; when the service
 * is stopped, here, with the projector running, since no other process can
 * then bring the read models up to date.
 */
export async function runCli(tool: string, command: CliCommand, args: string[]): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  if (config.mode === 'embedded') {
    const endpoint = await findAdminEndpoint(config.storage.embeddedDataDir);
    if (endpoint !== null) return runThroughAdminEndpoint(endpoint, tool, args, terminal);
    // Loaded only here: the roles' modules (the HTTP app's among them) are a third of a CLI's start-up otherwise.
    const { startService } = await import('../service.js');
    const service = await startService(config, new Set<Role>(['projector']), logger);
    try {
      await service.projections?.waitUntilCaughtUp(null, { timeoutMs: 120_000 });
      return await command(args, service.container, terminal);
    } finally {
      await service.stop();
    }
  }
  const { container, close } = await createContainer(config, logger);
  try {
    return await command(args, container, terminal);
  } finally {
    await close();
  }
}

/** The entry point of a CLI script: exits with the command's code; a bad setting exits 2 naming it. */
export function runCliProcess(tool: string, command: CliCommand): void {
  runCli(tool, command, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(error instanceof ConfigError ? 2 : 1);
    },
  );
}
