import assert from 'node:assert/strict';
import { type ApiResponse, apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('HTTP: authentication and error responses', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let apiKey: string;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_auth' });
    call = apiClient(service.url);
    ({ apiKey } = await service.createAccount());
  });
  after(async () => service?.stop());

  const assertError = (response: ApiResponse, status: number, message?: string | RegExp) => {
    assert.equal(response.status, status);
    assert.equal(typeof response.body.error, 'string');
    assert.ok(!/at .+\(.+:\d+:\d+\)/.test(JSON.stringify(response.body)), 'no stack trace in the body');
    if (typeof message === 'string') assert.equal(response.body.error, message);
    else if (message !== undefined) assert.match(response.body.error, message);
  };

  it('answers 401 saying the key is missing and how to send it', async () => {
    const response = await call('GET', '/api/v2/me');
    assertError(response, 401, /missing/i);
    assert.match(response.body.error, /Authorization: Bearer/);
  });

  it('treats a key in another scheme as missing', async () => {
    assertError(await call('GET', '/api/v2/me', { headers: { Authorization: `Basic ${apiKey}` } }), 401, /missing/i);
  });

  it('answers 401 "Invalid API key" for an unknown key, on every API path', async () => {
    assertError(await call('GET', '/api/v2/me', { key: 'vds_not-a-real-key' }), 401, 'Invalid API key');
    assertError(
      await call('POST', '/api/v2/download', { key: 'vds_nope', json: { url: 'x' } }),
      401,
      'Invalid API key',
    );
    assertError(await call('GET', '/api/v2/no-such-thing', { key: 'vds_nope' }), 401, 'Invalid API key');
  });

  it('answers 404 in JSON for unknown routes', async () => {
    assertError(await call('GET', '/api/v2/no-such-thing', { key: apiKey }), 404);
    assertError(await call('GET', '/nowhere'), 404);
  });

  it('answers 400 for malformed JSON', async () => {
    assertError(
      await call('POST', '/api/v2/download', {
        key: apiKey,
        raw: '{"url": ',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      /not valid JSON/,
    );
  });

  it('answers 413 for a body over the limit', async () => {
    const big = JSON.stringify({
      url: 'https://www.youtube.com/watch?v=abc',
      padding: 'x'.repeat(service.config.http.bodyLimitBytes + 10),
    });
    assertError(
      await call('POST', '/api/v2/download', {
        key: apiKey,
        raw: big,
        headers: { 'Content-Type': 'application/json' },
      }),
      413,
      /too large/,
    );
  });

  it('answers 415 for a body that is not JSON', async () => {
    assertError(
      await call('POST', '/api/v2/download', {
        key: apiKey,
        raw: 'url=x',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      415,
      /application\/json/,
    );
  });

  it('serves the OpenAPI document without a key', async () => {
    const response = await call('GET', '/api/v2/openapi.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi.slice(0, 3), '3.1');
    assert.ok(response.body.paths['/download']);
  });

  it('serves the API under the legacy prefixes too', async () => {
    for (const prefix of service.config.http.legacyApiPrefixes) {
      const response = await call('GET', `${prefix}/me`, { key: apiKey });
      assert.equal(response.status, 200, prefix);
    }
  });

  it('answers health, readiness and metrics outside the API', async () => {
    assert.equal((await call('GET', '/healthz')).status, 200);
    const ready = await call('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.mode, 'server');
    assert.deepEqual(ready.body.checks, {
      postgres: 'ok',
      eventStore: 'ok',
      nats: 'ok',
      processorLag: 'ok',
      projections: 'ok',
      liveStatus: 'ok',
    });
    const metrics = await call('GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(String(metrics.body), /http_requests_total/);
  });

  it('echoes a request id', async () => {
    const response = await call('GET', '/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
    assert.equal(response.headers.get('x-request-id'), 'abc-123');
  });
});
