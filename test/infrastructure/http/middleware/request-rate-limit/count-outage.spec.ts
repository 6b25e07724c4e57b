import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { Knex } from 'knex';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../../../application/accounts/authenticate.js';
import { CheckRequestRate } from '../../../../../application/rate-limits/check-request-rate.js';
import { createHttpApp } from '../../../../../infrastructure/http/create-http-app.js';
import { requestRateLimit } from '../../../../../infrastructure/http/middleware/request-rate-limit.js';
import { createLogger } from '../../../../../infrastructure/observability/create-logger.js';
import { createKnex } from '../../../../../infrastructure/postgres/create-knex.js';
import { LeasedRateLimitStore } from '../../../../../infrastructure/rate-limits/leased-rate-limit-store.js';
import { PostgresWindowCounter } from '../../../../../infrastructure/rate-limits/postgres-window-counter.js';
import { type TestDatabase, createTestDatabase } from '../../../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../../../support/tcp-proxy.js';

const COUNT_TIMEOUT_MS = 1_000;

describe('request rate limits while their database cannot answer', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: Knex;
  let server: Server;
  let base: string;

  before(async () => {
    database = await createTestDatabase('rate_count_outage');
    const url = new URL(database.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    db = createKnex(url.toString(), 2);
    const counter = await PostgresWindowCounter.open(db, { countTimeoutMs: COUNT_TIMEOUT_MS });
    const routes = new Router();
    routes.get('/download/:jobId', (ctx) => {
      ctx.body = { jobId: ctx.params.jobId };
    });
    const app = createHttpApp({
      logger: createLogger('silent'),
      metrics: new Registry(),
      legacyApiPrefixes: [],
      bodyLimitBytes: 1024,
      authenticate: {
        execute: async () => ({ accountId: 'acc-1', keyId: 'key-1', planId: null }),
      } as unknown as Authenticate,
      openApiDocument: { openapi: '3.1.0' },
      apiRouters: [routes],
      publicRouters: [],
      afterAuthentication: requestRateLimit(
        // No leases: every request asks the shared count, so none is admitted from what an earlier one took.
        new CheckRequestRate(new LeasedRateLimitStore(counter, 0, () => counter.now()), {
          defaults: { perKey: 50, perAccount: 100 },
          byPlan: {},
        }),
      ),
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => proxy.restore());
  after(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    proxy?.cut();
    await db?.destroy();
    await proxy?.close();
    await database?.drop();
  });

  const get = () => fetch(`${base}/api/v2/download/job-1`, { headers: { Authorization: 'Bearer any' } });

  async function expectUncounted(): Promise<void> {
    const started = Date.now();
    const responses = await Promise.all([get(), get(), get()]);
    const elapsedMs = Date.now() - started;
    for (const response of responses) {
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.match(((await response.json()) as { error: string }).error, /rate limits.*retry after 2 s/);
    }
    // The count's timeout, and room for a busy machine; never the minute a pool or a socket would take.
    assert.ok(elapsedMs < COUNT_TIMEOUT_MS + 3_000, `answered after ${elapsedMs} ms`);
  }

  it('counts as usual while the database answers', async () => {
    const response = await get();
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('ratelimit-limit'));
  });

  it('answers 503 with Retry-After within the count’s timeout while the database hangs', async () => {
    proxy.freeze();
    await expectUncounted();
  });

  it('answers 503 with Retry-After while the database is unreachable, and counts again once it is back', async () => {
    proxy.cut();
    await expectUncounted();
    proxy.restore();
    const deadline = Date.now() + 20_000;
    while ((await get()).status !== 200) {
      assert.ok(Date.now() < deadline, 'the count never came back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
