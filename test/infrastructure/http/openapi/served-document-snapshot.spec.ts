import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Registry } from 'prom-client';
import type { Authenticate } from '../../../../application/accounts/authenticate.js';
import { createHttpApp } from '../../../../infrastructure/http/create-http-app.js';
import { OPENAPI_DOCUMENT as openApiDocument } from '../../../../infrastructure/features/features.js';
import { createLogger } from '../../../../infrastructure/observability/create-logger.js';

/** The document as served before it was split by resource; clients may have generated code from it. */
const SNAPSHOT = path.resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'openapi-document.json');

/**
 * The same document whatever order its keys are written in. The order of
 * `required` is sorted too: it lists names, and no reader gives it meaning.
 */
function normalised(node: unknown, key?: string): unknown {
  if (Array.isArray(node)) {
    const items = node.map((item) => normalised(item));
    return key === 'required' ? [...items].sort() : items;
  }
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([name, value]) => [name, normalised(value, name)]));
}

describe('the served OpenAPI document', () => {
  let server: Server;
  let base: string;

  before(async () => {
    const app = createHttpApp({
      logger: createLogger('silent'),
      metrics: new Registry(),
      legacyApiPrefixes: [],
      bodyLimitBytes: 1024,
      authenticate: { execute: async () => null } as unknown as Authenticate,
      openApiDocument,
      apiRouters: [],
      publicRouters: [],
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('is the snapshot, but for the order of keys', async () => {
    const response = await fetch(`${base}/api/v2/openapi.json`);
    assert.equal(response.status, 200);
    const served = await response.json();
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    assert.deepEqual(normalised(served), normalised(snapshot));
  });

  it('notices a changed schema', () => {
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    const changed = structuredClone(snapshot);
    changed.components.schemas.ApiError.required = ['details'];
    assert.notDeepEqual(normalised(changed), normalised(snapshot));
  });
});
