import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { type ApiResponse, apiClient } from '../support/api-client.js';
import { rawRequest } from '../support/raw-http.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('HTTP: hostile request bodies', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let apiKey: string;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_bodies' });
    call = apiClient(service.url);
    ({ apiKey } = await service.createAccount());
  });
  after(async () => service?.stop());

  const assertError = (response: Pick<ApiResponse, 'status' | 'body'>, status: number, message?: RegExp) => {
    assert.equal(response.status, status, JSON.stringify(response.body).slice(0, 300));
    assert.equal(typeof response.body.error, 'string');
    if (message !== undefined) assert.match(response.body.error, message);
  };

  it('answers 400 for a body nested deeper than 32 levels, however deep', async () => {
    for (const depth of [33, 10_000]) {
      const raw = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      assertError(
        await call('POST', '/api/v2/download', { key: apiKey, raw, headers: { 'Content-Type': 'application/json' } }),
        400,
        /nested more than 32 levels/,
      );
      const inObject = `{"url":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      assertError(
        await call('POST', '/api/v2/download', {
          key: apiKey,
          raw: inObject,
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        /nested more than 32 levels/,
      );
    }
  });

  it('answers 400 naming the encoding when a compressed body does not decompress, on any path, and 415 for an encoding it does not take', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      for (const path of ['/api/v2/download', '/API/V2/download', '/nowhere']) {
        const headers = {
          'Content-Type': 'application/json',
          'Content-Encoding': encoding,
          Authorization: `Bearer ${apiKey}`,
        };
        const response = await rawRequest(service.url, 'POST', path, headers, '{"url":"plain, not compressed"}');
        assert.notEqual(response.status, 500, `${encoding} ${path}`);
        assert.equal(typeof response.body.error, 'string', `${encoding} ${path}`);
        if (!path.includes('nowhere')) assertError(response, 400, /Content-Encoding/);
      }
    }
    const compressed = gzipSync(JSON.stringify({ url: 'not a url' }));
    const decoded = await rawRequest(
      service.url,
      'POST',
      '/api/v2/download',
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Authorization: `Bearer ${apiKey}` },
      compressed,
    );
    assertError(decoded, 400, /^url /);
    for (const encoding of ['gzip, br', 'compress', 'zstd']) {
      const response = await rawRequest(
        service.url,
        'POST',
        '/api/v2/download',
        { 'Content-Type': 'application/json', 'Content-Encoding': encoding, Authorization: `Bearer ${apiKey}` },
        '{}',
      );
      assertError(response, 415, /Content-Encoding/);
    }
  });

  it('reads no body before the key is checked, and none outside the API', async () => {
    const huge = 'x'.repeat(200_000);
    assertError(
      await call('POST', '/api/v2/download', { raw: huge, headers: { 'Content-Type': 'application/json' } }),
      401,
    );
    assertError(
      await call('POST', '/V2/download', {
        key: 'vds_unknown',
        raw: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      401,
    );
    assertError(await call('POST', '/nowhere', { raw: '{', headers: { 'Content-Type': 'application/json' } }), 404);
    assertError(await call('POST', '/healthz', { raw: huge, headers: { 'Content-Type': 'application/json' } }), 405);
  });
});
