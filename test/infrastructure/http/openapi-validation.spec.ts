import assert from 'node:assert/strict';
import { openApiDocument } from '../../../infrastructure/http/openapi/document.js';
import { validateRequestBody } from '../../../infrastructure/http/openapi/request-validator.js';
import { validateResponse } from '../../../infrastructure/http/openapi/response-validator.js';

describe('OpenAPI document as the source of validation', () => {
  const refuse = (body: unknown) => {
    const result = validateRequestBody('submitDownload', body);
    assert.equal(result.ok, false);
    return result.ok ? '' : result.message;
  };

  it('is OpenAPI 3.1 with an operation id on every operation', () => {
    assert.equal(openApiDocument.openapi, '3.1.0');
    for (const [path, item] of Object.entries(openApiDocument.paths)) {
      for (const operation of Object.values(item)) assert.ok((operation as { operationId?: string }).operationId, path);
    }
  });

  it('applies defaults and names the field for each rule of the submit request', () => {
    const ok = validateRequestBody('submitDownload', { url: 'https://youtu.be/x' });
    assert.deepEqual(ok, { ok: true, value: { url: 'https://youtu.be/x', format: 'audio' } });
    assert.equal(refuse({}), 'url is required');
    assert.equal(refuse({ url: 5 }), 'url must be a string');
    assert.equal(refuse({ url: 'u', format: '4k' }), 'format must be one of: 1080, 720, 480, 360, audio, audio-aac, audio-mp3');
    assert.equal(refuse({ url: 'u', startTime: 1.5 }), 'startTime must be an integer');
    assert.equal(refuse({ url: 'u', startTime: -1 }), 'startTime must be >= 0');
    assert.equal(refuse({ url: 'u', endTime: 0 }), 'endTime must be >= 1');
    assert.equal(refuse({ url: 'u', language: 'english!' }), 'language must match ^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$');
    assert.equal(refuse({ url: 'u', webhookUrl: `https://example.com/${'a'.repeat(2048)}` }), 'webhookUrl must be at most 2048 characters');
    assert.equal(refuse({ url: 'u', webhookUrl: 'not a uri' }), 'webhookUrl must be a valid absolute URI');
    assert.equal(refuse({ url: 'u', extra: 1 }), 'unknown field: extra');
    assert.equal(refuse([1]), 'request body must be a JSON object');
    assert.equal(refuse(undefined), 'request body must be a JSON object');
  });

  it('accepts each documented download shape and rejects shapes that break it', () => {
    const base = { jobId: 'j', url: 'u', format: 'audio', title: 't', duration: 6, language: null, createdAt: '2026-01-01T00:00:00.000Z', startedAt: null, completedAt: null };
    const path = '/api/v2/download/j';
    assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'IN_QUEUE' }), []);
    const completed = { ...base, status: 'COMPLETED', actualFormat: 'audio', downloadUrl: 'https://x.example/f', fileSize: 10, startedAt: base.createdAt, completedAt: base.createdAt };
    assert.deepEqual(validateResponse('GET', path, 200, completed), []);
    assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'FAILED', errorCode: 'PRIVATE_VIDEO' }), []);
    const { fileSize: _dropped, ...withoutSize } = completed;
    assert.notDeepEqual(validateResponse('GET', path, 200, withoutSize), []);
    assert.notDeepEqual(validateResponse('GET', path, 200, { ...base, status: 'IN_QUEUE', fileSize: 3 }), []);
    assert.notDeepEqual(validateResponse('GET', path, 200, { ...base, status: 'PAUSED' }), []);
    assert.notDeepEqual(validateResponse('GET', path, 418, { error: 'x' }), []);
    assert.deepEqual(validateResponse('POST', '/api/v2/download', 429, { error: 'x' }, { 'x-pending-downloads': '100', 'x-pending-downloads-limit': '100' }), []);
    assert.notDeepEqual(validateResponse('POST', '/api/v2/download', 429, { error: 'x' }), []);
  });
});
