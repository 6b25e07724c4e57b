import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { AddOnId, PlanId } from '../../domain/account/plan.js';
import { type Config, type Role, loadConfig } from '../../infrastructure/config/config.js';
import type { Overrides } from '../../infrastructure/composition/overrides.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { type RunningService, startService } from '../../infrastructure/service.js';
import { testEmbeddedTemplateDir } from './embedded-template.js';
import { type TestDatabase, createTestDatabase } from './postgres.js';

export interface TestService {
  url: string;
  api: string;
  config: Config;
  service: RunningService;
  /** The server mode's throwaway database; null in embedded mode. */
  database: TestDatabase | null;
  /** Opens an account through the same use case the admin CLI runs, and waits until its key works. */
  createAccount(options?: {
    planId?: PlanId;
    addOns?: AddOnId[];
    name?: string;
    email?: string;
  }): Promise<{ accountId: string; apiKey: string }>;
  /** Resolves once the read models reflect everything appended so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole service in this process, on a throwaway database, its own NATS
 * stream and its own directories, listening on a random port. `embedded`
 * sets none of the server URLs, so the service keeps everything in PGlite
 * under its data directory.
 */
export async function startTestService(
  options: {
    roles?: Role[];
    env?: Record<string, string>;
    overrides?: Overrides;
    label?: string;
    embedded?: boolean;
    /** Rewrites the throwaway database's address the service is given, e.g. to reach it through a proxy. */
    databaseUrl?: (url: string) => string;
  } = {},
): Promise<TestService> {
  const database = options.embedded ? null : await createTestDatabase(options.label ?? 'service');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vds-test-'));
  const servers =
    database === null
      ? {}
      : {
          DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url,
          NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
        };
  const streamName = `VDS_TEST_${randomBytes(4).toString('hex').toUpperCase()}`;
  const roles = new Set<Role>(options.roles ?? ['api', 'projector', 'worker']);
  const { config, service } = await startOnFreePort(
    (port) =>
      loadConfig({
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        HOST: '127.0.0.1',
        ...servers,
        // Small pools: spec files run side by side on one PostgreSQL server; see "PostgreSQL connections" in the README.
        DATABASE_POOL_SIZE: '3',
        NATS_STREAM: streamName,
        DATA_DIR: dataDir,
        EMBEDDED_TEMPLATE_DIR: testEmbeddedTemplateDir(),
        WORK_DIR: path.join(dataDir, 'work'),
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        SHUTDOWN_TIMEOUT_MS: '2000',
        // Most services here never look a video up nor download one: their Python starts only if they do. The
        // service processes the specs start (worker-process.ts, embedded-process.spec.ts) keep the default.
        EXTRACTOR_WARM_UP: 'first-use',
        // Tests poll fast; the suites about rate limits set their own.
        RATE_LIMIT_KEY_PER_SECOND: '0',
        RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
        ...options.env,
      }),
    (config) => startService(config, roles, createLogger(config.observability.logLevel), options.overrides),
  ).catch(async (error: unknown) => {
    // A failed start leaves no service for the spec's stop(): its database and directory go here.
    await database?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const url = service.url ?? '';
  const settle = async () => {
    await service.projections?.waitUntilCaughtUp(null, { timeoutMs: 20_000 });
  };
  return {
    url,
    api: `${url}/api/v2`,
    config,
    service,
    database,
    settle,
    async createAccount(account = {}) {
      const admin = service.container.resolve(AccountAdministration);
      const created = await admin.openAccount({
        name: account.name ?? 'Test Account',
        email: account.email ?? 'test@example.com',
        planId: account.planId ?? 'starter',
        addOns: account.addOns ?? [],
      });
      await settle();
      return { accountId: created.accountId, apiKey: created.apiKey };
    },
    async stop() {
      await service.stop();
      if (database !== null) {
        await deleteStream(config);
        await database.drop();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the service on a port nobody listens on, so its links can name the
 * port before the server opens it. Another process may take that port in
 * between (spec files run side by side): then it starts again on another.
 */
async function startOnFreePort(
  configFor: (port: number) => Config,
  start: (config: Config) => Promise<RunningService>,
): Promise<{ config: Config; service: RunningService }> {
  for (let attempt = 1; ; attempt++) {
    const config = configFor(await freePort());
    try {
      return { config, service: await start(config) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function deleteStream(config: Config): Promise<void> {
  const { connect } = await import('nats');
  const nc = await connect({ servers: config.queue.natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(config.queue.natsStreamName).catch(() => false);
  } finally {
    await nc.close();
  }
}
