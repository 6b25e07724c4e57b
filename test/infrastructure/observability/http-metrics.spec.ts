import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import type { Logger } from '../../../application/ports/logger.js';
import { createHttpApp } from '../../../infrastructure/http/create-http-app.js';
import { HttpError } from '../../../infrastructure/http/http-error.js';

interface Line {
  level: string;
  message: string;
}

/** Polls until `check` holds, so nothing depends on how fast a busy machine runs. */
async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('HTTP metrics and client aborts', () => {
  let server: Server;
  let base: string;
  let port: number;
  const lines: Line[] = [];
  const registry = new Registry();
  let bodyAwaited: () => void = () => {};
  const bodyAwaitedOnce = new Promise<void>((resolve) => {
    bodyAwaited = resolve;
  });

  before(async () => {
    const logger: Logger = {
      debug: (_fields, message) => void lines.push({ level: 'debug', message }),
      info: (_fields, message) => void lines.push({ level: 'info', message }),
      warn: (_fields, message) => void lines.push({ level: 'warn', message }),
      error: (_fields, message) => void lines.push({ level: 'error', message }),
      child: () => logger,
    };
    const routes = new Router();
    routes.get('/download/:jobId', (ctx) => {
      ctx.body = { jobId: ctx.params.jobId };
    });
    routes.post('/download', (ctx) => {
      ctx.body = { received: ctx.request.body };
    });
    const authenticate = {
      execute: async (key: string) => (key === 'good' ? { accountId: 'acc-1', keyId: 'key-1', planId: null } : null),
    } as unknown as Authenticate;
    const app = createHttpApp({
      logger,
      metrics: registry,
      legacyApiPrefixes: ['/v2'],
      bodyLimitBytes: 1024,
      authenticate,
      openApiDocument: { openapi: '3.1.0' },
      apiRouters: [routes],
      publicRouters: [],
      // Stands in for a slow key lookup or rate limit: the body is read only once the client has gone.
      afterAuthentication: async (ctx: Context, next: Next) => {
        if (ctx.get('X-Refuse') !== '') throw new HttpError(429, 'refused');
        if (ctx.get('X-Wait-For-Close') !== '') {
          bodyAwaited();
          if (!ctx.req.destroyed) await new Promise((resolve) => ctx.req.once('close', resolve));
        }
        await next();
      },
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function counted(route: string, status: string): Promise<number> {
    const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === 'http_requests_total');
    const values = (metric?.values ?? []) as Array<{ value: number; labels: Record<string, string | number> }>;
    return values
      .filter((value) => value.labels.route === route && String(value.labels.status) === status)
      .reduce((sum, value) => sum + value.value, 0);
  }
  async function statuses(method: string): Promise<string[]> {
    const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === 'http_requests_total');
    const values = (metric?.values ?? []) as Array<{ labels: Record<string, string | number> }>;
    return values.filter((value) => value.labels.method === method).map((value) => String(value.labels.status));
  }

  it('labels requests by the route template they matched, whatever the prefix and even when refused before routing', async () => {
    const good = { Authorization: 'Bearer good' };
    assert.equal((await fetch(`${base}/api/v2/download/job-1`, { headers: good })).status, 200);
    assert.equal((await fetch(`${base}/V2/DOWNLOAD/job-2`, { headers: good })).status, 200);
    assert.equal((await fetch(`${base}/api/v2/download/job-3`)).status, 401);
    assert.equal((await fetch(`${base}/api/v2/download/job-4`, { headers: { ...good, 'X-Refuse': '1' } })).status, 429);
    assert.equal((await fetch(`${base}/api/v2/no-such-thing/job-5`, { headers: good })).status, 404);
    await eventually(
      async () => (await counted('/api/v2/download/:jobId', '200')) === 1,
      'the poll under /api/v2 counted by its template',
    );
    assert.equal(await counted('/v2/download/:jobId', '200'), 1);
    assert.equal(await counted('/api/v2/download/:jobId', '401'), 1);
    assert.equal(await counted('/api/v2/download/:jobId', '429'), 1);
    assert.equal(await counted('unmatched', '404'), 1);
  });

  it('treats a client that disconnects before its body is read as an abort: a debug line, no error, no 5xx', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/v2/download HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer good\r\nContent-Type: application/json\r\nX-Wait-For-Close: 1\r\nContent-Length: 100\r\n\r\n{"url": "htt',
    );
    // Once the server has the request and has not read its body yet, go away mid-body.
    await bodyAwaitedOnce;
    socket.destroy();
    await eventually(async () => (await statuses('POST')).length > 0, 'the aborted request to be counted');
    assert.deepEqual(await statuses('POST'), ['499']);
    assert.equal(await counted('/api/v2/download', '499'), 1);
    assert.deepEqual(
      lines.filter((line) => line.level === 'error'),
      [],
    );
    assert.ok(lines.some((line) => line.level === 'debug' && /client closed/.test(line.message)));
  });
});
