import assert from 'node:assert/strict';
import { openApiDocument } from '../../../../infrastructure/http/openapi/document.js';
import { OpenApiSchemas } from '../../../../infrastructure/http/openapi/openapi-ajv.js';
import { validateRequestBody } from '../../../../infrastructure/http/openapi/request-validator.js';
import { assertMatchesOpenApi, validateResponse } from '../../../../infrastructure/http/openapi/response-validator.js';

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> };

const operations = (): Array<{ path: string; method: string; operation: Operation }> =>
  Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );

describe('OpenAPI document', () => {
  describe('structure', () => {
    it('is OpenAPI 3.1.0 served under the current and legacy base paths', () => {
      assert.equal(openApiDocument.openapi, '3.1.0');
      assert.deepEqual(openApiDocument.servers.map((server) => server.url), ['/api/v2', '/api/v1', '/v2']);
    });

    it('requires the bearer scheme by default', () => {
      assert.deepEqual(openApiDocument.components.securitySchemes.bearerAuth, {
        ...openApiDocument.components.securitySchemes.bearerAuth,
        type: 'http',
        scheme: 'bearer',
      });
      assert.deepEqual(openApiDocument.security, [{ bearerAuth: [] }]);
    });

    it('names every contract operation by its operationId', () => {
      const ids = operations().map(({ operation }) => operation.operationId);
      for (const id of ['submitDownload', 'getDownload', 'submitInfo', 'getInfo', 'listChannel', 'submitClientDownload', 'getClientDownload', 'getMe']) {
        assert.ok(ids.includes(id), id);
      }
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    });

    it('lists the fifteen download error codes', () => {
      assert.equal(openApiDocument.components.schemas.DownloadErrorCode.enum.length, 15);
    });

    it('compiles every component schema and every JSON response schema', () => {
      const compiler = new OpenApiSchemas({ useDefaults: false });
      for (const name of Object.keys(openApiDocument.components.schemas)) compiler.validator(`/components/schemas/${name}`);
      for (const { path, method, operation } of operations()) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (response.content?.['application/json'] === undefined) continue;
          const escapedPath = path.replace(/~/g, '~0').replace(/\//g, '~1');
          compiler.validator(`/paths/${escapedPath}/${method}/responses/${status}/content/application~1json/schema`);
        }
      }
    });
  });

  describe('request validation', () => {
    const refusal = (body: unknown, operationId = 'submitDownload'): string => {
      const result = validateRequestBody(operationId, body);
      assert.equal(result.ok, false, `expected ${JSON.stringify(body)} to be refused`);
      return result.ok ? '' : result.message;
    };

    it('fills in documented defaults on a copy of the body', () => {
      const body = { url: 'https://youtu.be/abc' };
      assert.deepEqual(validateRequestBody('submitDownload', body), { ok: true, value: { url: 'https://youtu.be/abc', format: 'audio' } });
      assert.deepEqual(body, { url: 'https://youtu.be/abc' });
      assert.deepEqual(validateRequestBody('submitInfo', { url: 'u' }), { ok: true, value: { url: 'u', includeAudioTracks: false } });
      assert.deepEqual(validateRequestBody('listChannel', { channelUrl: 'c' }), { ok: true, value: { channelUrl: 'c', maxVideos: 5 } });
    });

    it('accepts a fully specified download request unchanged', () => {
      const body = { url: 'u', format: '720', startTime: 0, endTime: 30, language: 'en-US', webhookUrl: 'https://hooks.example.com/done' };
      assert.deepEqual(validateRequestBody('submitDownload', body), { ok: true, value: body });
    });

    it('refuses a body that is not a JSON object', () => {
      for (const body of [undefined, null, 'text', 3, [1]]) assert.equal(refusal(body), 'request body must be a JSON object');
    });

    it('names the field and the broken rule', () => {
      assert.equal(refusal({}), 'url is required');
      assert.equal(refusal({ url: 5 }), 'url must be a string');
      assert.equal(refusal({ url: 'u', format: '4k' }), 'format must be one of: 1080, 720, 480, 360, audio, audio-aac, audio-mp3');
      assert.equal(refusal({ url: 'u', startTime: 1.5 }), 'startTime must be an integer');
      assert.equal(refusal({ url: 'u', startTime: '3' }), 'startTime must be an integer');
      assert.equal(refusal({ url: 'u', startTime: -1 }), 'startTime must be >= 0');
      assert.equal(refusal({ url: 'u', endTime: 0 }), 'endTime must be >= 1');
      assert.equal(refusal({ url: 'u', language: 'english!' }), 'language must match ^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$');
      assert.equal(refusal({ url: 'u', webhookUrl: `https://example.com/${'a'.repeat(2048)}` }), 'webhookUrl must be at most 2048 characters');
      assert.equal(refusal({ url: 'u', webhookUrl: 'not a uri' }), 'webhookUrl must be a valid absolute URI');
      assert.equal(refusal({ url: 'u', foo: 1 }), 'unknown field: foo');
    });

    it('applies the rules of the other operations', () => {
      assert.equal(refusal({ url: 'u', includeAudioTracks: 'yes' }, 'submitInfo'), 'includeAudioTracks must be a boolean');
      assert.equal(refusal({ channelUrl: 'c', maxVideos: 1001 }, 'listChannel'), 'maxVideos must be <= 1000');
      assert.equal(refusal({ channelUrl: 'c', maxVideos: 0 }, 'listChannel'), 'maxVideos must be >= 1');
      assert.equal(refusal({}, 'submitClientDownload'), 'url is required');
    });

    it('throws for an operation without a request body, a programming error rather than a client one', () => {
      assert.throws(() => validateRequestBody('getMe', {}), /getMe/);
    });
  });

  describe('response validation', () => {
    const path = '/api/v2/download/job-1';
    const base = {
      jobId: 'job-1',
      url: 'https://youtu.be/abc',
      format: 'audio',
      title: 'A video',
      duration: 61,
      language: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      startedAt: null,
      completedAt: null,
    };
    const completed = {
      ...base,
      status: 'COMPLETED',
      actualFormat: 'audio',
      downloadUrl: 'https://cdn.example.com/file.m4a',
      fileSize: 1024,
      startedAt: '2026-01-01T00:00:01.000Z',
      completedAt: '2026-01-01T00:00:09.000Z',
    };

    it('accepts each download status shape', () => {
      assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'IN_QUEUE' }), []);
      assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'IN_PROGRESS', startedAt: '2026-01-01T00:00:01.000Z' }), []);
      assert.deepEqual(validateResponse('GET', path, 200, completed), []);
      assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'FAILED', errorCode: 'PRIVATE_VIDEO', completedAt: completed.completedAt }), []);
      assert.deepEqual(validateResponse('GET', path, 200, { ...base, status: 'FAILED' }), []);
    });

    it('strips each base path, legacy ones included', () => {
      for (const prefix of ['/api/v2', '/api/v1', '/v2']) assert.deepEqual(validateResponse('GET', `${prefix}/download/job-1`, 200, completed), [], prefix);
    });

    it('rejects a completed job without fileSize', () => {
      const { fileSize: _omitted, ...withoutSize } = completed;
      assert.notDeepEqual(validateResponse('GET', path, 200, withoutSize), []);
    });

    it('rejects a pending job carrying fileSize', () => {
      assert.notDeepEqual(validateResponse('GET', path, 200, { ...base, status: 'IN_QUEUE', fileSize: 3 }), []);
    });

    it('rejects an unknown status', () => {
      assert.notDeepEqual(validateResponse('GET', path, 200, { ...base, status: 'PAUSED' }), []);
    });

    it('rejects a status code the operation does not document', () => {
      const problems = validateResponse('GET', path, 418, { error: 'teapot' });
      assert.deepEqual(problems, ['GET /download/{jobId} does not document status 418']);
    });

    it('checks error bodies against ApiError', () => {
      assert.deepEqual(validateResponse('GET', path, 404, { error: 'Job not found' }), []);
      assert.notDeepEqual(validateResponse('GET', path, 404, { message: 'Job not found' }), []);
    });

    it('requires the pending-download headers on 429', () => {
      const headers = { 'X-Pending-Downloads': '100', 'x-pending-downloads-limit': '100' };
      assert.deepEqual(validateResponse('POST', '/api/v2/download', 429, { error: 'Too many pending downloads' }, headers), []);
      assert.deepEqual(validateResponse('POST', '/api/v2/download', 429, { error: 'Too many pending downloads' }), [
        'missing header X-Pending-Downloads',
        'missing header X-Pending-Downloads-Limit',
      ]);
    });

    it('leaves paths outside the API alone, and holds unknown API routes to the error body', () => {
      assert.deepEqual(validateResponse('GET', '/healthz', 200, 'ok'), []);
      assert.deepEqual(validateResponse('GET', '/api/v2/nowhere', 404, { error: 'No such endpoint: GET /api/v2/nowhere' }), []);
      assert.notDeepEqual(validateResponse('GET', '/api/v2/nowhere', 404, 'not json'), []);
    });

    it('validates the other resources', () => {
      assert.deepEqual(validateResponse('POST', '/api/v2/info', 200, { jobId: '3b241101-e2bb-4255-8caf-4136c566a962', status: 'pending' }), []);
      assert.deepEqual(
        validateResponse('GET', '/api/v2/info/x', 200, { jobId: 'x', status: 'success', result: { title: 't', duration: 5, url: 'u', audio: [{ type: 'original', language: null }] } }),
        [],
      );
      assert.notDeepEqual(validateResponse('GET', '/api/v2/info/x', 200, { jobId: 'x', status: 'failed' }), []);
      const balance = { granted: 10, used: 1, remaining: 9, unlimited: false, resetsAt: null };
      const account = { name: 'N', email: 'n@example.com', plan: { id: 'free', renewsAt: null, canceledAt: null }, balances: { download_count: balance, bandwidth_mb: balance, info: balance } };
      assert.deepEqual(validateResponse('GET', '/api/v2/me', 200, account), []);
      assert.notDeepEqual(validateResponse('GET', '/api/v2/me', 200, { ...account, plan: { ...account.plan, id: 'platinum' } }), []);
    });

    it('assertMatchesOpenApi throws with the problems and the body', () => {
      assert.doesNotThrow(() => assertMatchesOpenApi('GET', path, 200, completed));
      assert.throws(() => assertMatchesOpenApi('GET', path, 200, { ...base, status: 'PAUSED' }), (error: Error) => {
        assert.match(error.message, /GET \/api\/v2\/download\/job-1 -> 200/);
        assert.match(error.message, /PAUSED/);
        return true;
      });
    });
  });
});
