import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { AddOnId, PlanId } from '../../domain/account/plan.js';
import { type Config, type Role, loadConfig } from '../../infrastructure/config/config.js';
import type { Knex } from 'knex';
import { type Overrides, TOKENS } from '../../infrastructure/container.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { type RunningService, startService } from '../../infrastructure/service.js';
import { type TestDatabase, createTestDatabase } from './postgres.js';

export interface TestService {
  url: string;
  api: string;
  config: Config;
  service: RunningService;
  database: TestDatabase;
  /** Opens an account through the same use case the admin CLI runs, and waits until its key works. */
  createAccount(options?: { planId?: PlanId; addOns?: AddOnId[]; name?: string; email?: string }): Promise<{ accountId: string; apiKey: string }>;
  /** Resolves once the read models reflect everything appended so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole service in this process, on a throwaway database, its own NATS
 * stream and its own directories, listening on a random port.
 */
export async function startTestService(options: { roles?: Role[]; env?: Record<string, string>; overrides?: Overrides; label?: string } = {}): Promise<TestService> {
  const database = await createTestDatabase(options.label ?? 'service');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vds-test-'));
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '20',
    NATS_STREAM: `VDS_TEST_${randomBytes(4).toString('hex').toUpperCase()}`,
    DATA_DIR: dataDir,
    WORK_DIR: path.join(dataDir, 'work'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SHUTDOWN_TIMEOUT_MS: '2000',
    // Tests poll fast; the suites about rate limits set their own.
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
    ...options.env,
  });
  const roles = new Set<Role>(options.roles ?? ['api', 'projector', 'worker']);
  const logger = createLogger(config.logLevel);
  const service = await startService(config, roles, logger, options.overrides);
  const url = service.url ?? '';
  const settle = async () => {
    await waitForEarlierTransactions(service);
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
      await deleteStream(config);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The PostgreSQL store shows no event past a transaction still open anywhere
 * on the server, so "caught up with what is visible" can miss what a test
 * just wrote. Waiting until every transaction that began before now has ended
 * makes everything written so far visible first.
 */
async function waitForEarlierTransactions(service: RunningService): Promise<void> {
  const db = service.container.resolve<Knex>(TOKENS.database);
  const { rows } = await db.raw<{ rows: Array<{ horizon: string }> }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS horizon');
  const horizon = rows[0].horizon;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const check = await db.raw<{ rows: Array<{ passed: boolean }> }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) >= ?::xid8 AS passed', [horizon]);
    if (check.rows[0].passed || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A port nobody listens on now, so links can name it before the server starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function deleteStream(config: Config): Promise<void> {
  const { connect } = await import('nats');
  const nc = await connect({ servers: config.natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(config.natsStreamName).catch(() => false);
  } finally {
    await nc.close();
  }
}
