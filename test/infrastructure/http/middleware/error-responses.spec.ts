import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { Knex } from 'knex';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../../application/accounts/authenticate.js';
import { createHttpApp } from '../../../../infrastructure/http/create-http-app.js';
import { createLogger } from '../../../../infrastructure/observability/create-logger.js';
import { createKnex } from '../../../../infrastructure/postgres/create-knex.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../../support/tcp-proxy.js';

describe('error answers while PostgreSQL is out of reach', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: Knex;
  let server: Server;
  let base: string;

  before(async () => {
    database = await createTestDatabase('error_responses');
    const url = new URL(database.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    db = createKnex(url.toString(), 2);
    const routes = new Router();
    routes.get('/count', async (ctx) => {
      ctx.body = { rows: (await db.raw('SELECT 1 AS one')).rows.length };
    });
    routes.get('/fault', () => {
      throw new Error('a defect of the service');
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
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => proxy.restore());
  after(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await db?.destroy();
    await proxy?.close();
    await database?.drop();
  });

  const get = (path: string) => fetch(`${base}/api/v2${path}`, { headers: { Authorization: 'Bearer any' } });

  it('answers 503 with Retry-After, not 500, while the database refuses or drops connections, and 200 once back', async () => {
    assert.equal((await get('/count')).status, 200);
    proxy.cut();
    for (const response of [await get('/count'), await get('/count')]) {
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.match(((await response.json()) as { error: string }).error, /briefly unavailable.*retry shortly/);
    }
    proxy.restore();
    assert.equal((await get('/count')).status, 200);
  });

  it('still answers 500 for a defect, with nothing of it in the body', async () => {
    const response = await get('/fault');
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), { error: 'Internal server error' });
  });
});
