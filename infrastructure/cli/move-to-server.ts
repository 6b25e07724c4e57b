import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/config.js';
import { moveToServer } from './move-embedded-to-server.js';
import { createLogger } from '../observability/create-logger.js';
import { serviceMasterKeys } from '../security/personal-data/service-master-keys.js';

const USAGE = `Usage: npm run --silent move-to-server -- <postgres://…>
Copies the embedded installation's history (EMBEDDED_DATA_DIR) into an empty PostgreSQL
database, then rebuilds the read models there. Stop the embedded service first. Then start
the service with DATABASE_URL set to that database (and NATS_URL for the work queue).`;

async function main(): Promise<number> {
  const [databaseUrl, ...rest] = process.argv.slice(2);
  if (
    databaseUrl === undefined ||
    databaseUrl === '--help' ||
    rest.length > 0 ||
    !/^postgres(ql)?:\/\//.test(databaseUrl)
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const report = await moveToServer({
    directory: config.storage.embeddedDataDir,
    databaseUrl,
    masterKeys: serviceMasterKeys(config),
    logger: createLogger(process.env.LOG_LEVEL ?? 'warn'),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
