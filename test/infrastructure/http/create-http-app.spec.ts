import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { authenticatedAccountId } from '../../../infrastructure/http/authenticated-account.js';
import { createHttpApp } from '../../../infrastructure/http/create-http-app.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';

describe('createHttpApp: no API handler runs without an account', () => {
  let server: Server;
  let base: string;
  let handlerRuns = 0;

  before(async () => {
    const routes = new Router();
    routes.get('/whoami', (ctx) => {
      handlerRuns += 1;
      ctx.body = { accountId: ctx.state.accountId ?? null };
    });
    routes.get('/strict-whoami', (ctx) => {
      ctx.body = { accountId: authenticatedAccountId(ctx) };
    });
    // An authentication that accepts a key yet names no account: only the second line of defence stands.
    const authenticate = {
      execute: async (key: string) =>
        key === 'good' ? { accountId: 'acc-1', keyId: 'k', planId: null } : { accountId: '', keyId: 'k', planId: null },
    } as unknown as Authenticate;
    const app = createHttpApp({
      logger: createLogger('silent'),
      metrics: new Registry(),
      legacyApiPrefixes: ['/v2'],
      bodyLimitBytes: 1024,
      authenticate,
      openApiDocument: { openapi: '3.1.0' },
      apiRouters: [routes],
      publicRouters: [],
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 401 when authentication yields no account, before the handler runs', async () => {
    for (const path of ['/api/v2/whoami', '/V2/WHOAMI', '/Api/V2/whoami']) {
      const response = await fetch(base + path, { headers: { Authorization: 'Bearer empty' } });
      assert.equal(response.status, 401, path);
      assert.equal(typeof ((await response.json()) as { error: unknown }).error, 'string');
    }
    assert.equal(handlerRuns, 0);
  });

  it('tells a key pasted with a space inside it from a missing one', async () => {
    const answer = async (authorization?: string) => {
      const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
      const response = await fetch(`${base}/api/v2/whoami`, { headers });
      assert.equal(response.status, 401);
      return ((await response.json()) as { error: string }).error;
    };
    for (const pasted of ['Bearer vds_abc def', 'Bearer vds_abc\tdef', 'bearer  vds_abc  def  '])
      assert.match(await answer(pasted), /^Malformed API key: it contains a space or tab/, pasted);
    for (const missing of [undefined, '', 'Bearer', 'Bearer   '])
      assert.match(await answer(missing), /^Missing API key/, String(missing));
    assert.equal(handlerRuns, 0);
  });

  it('lets the account through when there is one', async () => {
    const response = await fetch(`${base}/api/v2/whoami`, { headers: { Authorization: 'Bearer good' } });
    assert.deepEqual(await response.json(), { accountId: 'acc-1' });
  });

  it('makes a handler that reads the account refuse to act for nobody', async () => {
    const fake = { state: {} } as unknown as Parameters<typeof authenticatedAccountId>[0];
    assert.throws(
      () => authenticatedAccountId(fake),
      (error: { status?: number }) => error.status === 401,
    );
  });
});
