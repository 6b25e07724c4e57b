import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { errorResponses } from '../../../infrastructure/http/middleware/error-responses.js';
import { documentedRoute } from '../../../infrastructure/http/openapi/operations.js';
import { operationRoute } from '../../../infrastructure/http/operation-route.js';
import { RequestValidation } from '../../../infrastructure/http/request-validation.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { OPENAPI_DOCUMENT } from '../../../infrastructure/features/features.js';

describe('operationRoute: handlers registered by the document’s operation ids', () => {
  let server: Server;
  let base: string;
  const seen: unknown[] = [];

  before(async () => {
    const router = new Router();
    const validation = new RequestValidation(OPENAPI_DOCUMENT);
    operationRoute(router, validation, 'submitDownload', async (ctx, request) => {
      const headers = request.headers();
      const body = request.body();
      // Typed from the schema: `format` is always there once validated, its default filled in.
      const format: string = body.format;
      seen.push({ format, startTime: body.startTime, key: headers['Idempotency-Key'] });
      ctx.body = { ok: true };
    });
    operationRoute(router, validation, 'getDownload', async (_ctx, request) => {
      const { jobId } = request.pathParameters('Download job not found');
      request.respond({ jobId, status: 'IN_QUEUE', url: 'u', format: 'audio', title: 't', duration: 1 });
    });
    operationRoute(router, validation, 'listDownloads', async (_ctx, request) => {
      const query = request.query();
      const limit: number | undefined = query.limit;
      request.respond({ jobs: [], nextCursor: limit === undefined ? null : String(limit) });
    });

    const app = new Koa();
    app.use(errorResponses(createLogger('silent')));
    app.use(koaBody());
    app.use(router.routes());
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('registers each handler on the method and path the document gives its operation', () => {
    assert.deepEqual(documentedRoute(OPENAPI_DOCUMENT.paths, 'submitDownload'), { method: 'post', path: '/download' });
    assert.deepEqual(documentedRoute(OPENAPI_DOCUMENT.paths, 'watchDownload'), {
      method: 'get',
      path: '/download/:jobId/events',
    });
    assert.deepEqual(documentedRoute(OPENAPI_DOCUMENT.paths, 'cancelDownload'), {
      method: 'delete',
      path: '/download/:jobId',
    });
  });

  it('hands the handler a validated body with its defaults, and documented headers', async () => {
    const response = await fetch(`${base}/download`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body: JSON.stringify({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', startTime: 3 }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(seen.at(-1), { format: 'audio', startTime: 3, key: 'k-1' });
  });

  it('answers a body that breaks the schema with a 400 naming the field', async () => {
    const response = await fetch(`${base}/download`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'x', startTime: -1 }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'startTime must be an integer from 0 to 2147483647' });
  });

  it('answers a malformed path parameter with the handler’s 404, not echoing it', async () => {
    const response = await fetch(`${base}/download/${encodeURIComponent('a b')}`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: 'Download job not found' });
    const found = await fetch(`${base}/download/abc`);
    assert.equal((await found.json()).jobId, 'abc');
  });

  it('reads integer query parameters as numbers', async () => {
    assert.equal((await (await fetch(`${base}/downloads?limit=7`)).json()).nextCursor, '7');
    assert.equal((await fetch(`${base}/downloads?limit=0`)).status, 400);
  });

  it('refuses, when compiling, an operation the document lacks and parts an operation does not take', () => {
    const router = new Router();
    const validation = new RequestValidation(OPENAPI_DOCUMENT);
    const register = () => {
      // @ts-expect-error: no such operation in the document.
      operationRoute(router, validation, 'noSuchOperation', async () => {});
      operationRoute(router, validation, 'getMe', async (_ctx, request) => {
        // @ts-expect-error: GET /me takes no body.
        request.body();
      });
    };
    // Registering the unknown id would throw at run time too; the point is that it does not compile.
    assert.throws(register, /noSuchOperation/);
  });
});
