import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../../../application/accounts/authenticate.js';
import type { CheckRequestRate } from '../../../../../application/rate-limits/check-request-rate.js';
import { createHttpApp } from '../../../../../infrastructure/http/create-http-app.js';
import { requestRateLimit } from '../../../../../infrastructure/http/middleware/request-rate-limit.js';
import { createLogger } from '../../../../../infrastructure/observability/create-logger.js';

describe('request rate limits: only the /me route is exempt', () => {
  let server: Server;
  let base: string;

  before(async () => {
    const routes = new Router();
    routes.get('/me', (ctx) => {
      ctx.body = { me: true };
    });
    routes.get('/download/:jobId', (ctx) => {
      ctx.body = { jobId: ctx.params.jobId };
    });
    const authenticate = {
      execute: async () => ({ accountId: 'acc-1', keyId: 'key-1', planId: null }),
    } as unknown as Authenticate;
    // Every counted request is refused, so a 429 shows the limiter looked at it.
    const spent = {
      execute: async () => ({ allowed: false, scope: 'key', limit: 1, remaining: 0, msBeforeReset: 500 }),
    } as unknown as CheckRequestRate;
    const app = createHttpApp({
      logger: createLogger('silent'),
      metrics: new Registry(),
      legacyApiPrefixes: ['/api/v1', '/v2'],
      bodyLimitBytes: 1024,
      authenticate,
      openApiDocument: { openapi: '3.1.0' },
      apiRouters: [routes],
      publicRouters: [],
      afterAuthentication: requestRateLimit(spent),
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string) => fetch(base + path, { headers: { Authorization: 'Bearer any' } });

  it('lets GET /me through under every prefix, in any letter case, with or without a trailing slash', async () => {
    for (const path of ['/api/v2/me', '/api/v2/me/', '/API/V2/ME', '/api/v1/Me', '/v2/me', '/V2/mE/']) {
      const response = await get(path);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), { me: true }, path);
    }
  });

  it('counts every other path that merely ends in /me', async () => {
    for (const path of [
      '/api/v2/download/me',
      '/api/v2/download/ME/',
      '/v2/download/me',
      '/api/v2/nothing/me',
      '/me',
      '/api/v2/me/me',
    ]) {
      const response = await get(path);
      if (path === '/me') {
        // Outside the API prefixes: no key, no limit, no route.
        assert.equal(response.status, 404, path);
        continue;
      }
      assert.equal(response.status, 429, path);
      assert.ok(response.headers.get('retry-after') !== null, path);
    }
  });
});
