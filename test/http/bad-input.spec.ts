import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { OPENAPI_DOCUMENT as openApiDocument } from '../../infrastructure/features/features.js';
import { type RawResponse, rawRequest } from '../support/raw-http.js';
import { ScriptedExtractor, answerAtOnce } from '../support/scripted-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';

const PREFIXES = ['/api/v2', '/API/V2', '/Api/v2', '/api/V2', '/api/v1', '/API/V1', '/v2', '/V2'];
const JSON_TYPE = { 'Content-Type': 'application/json' };

/** Every operation the document lists, with a plausible id in its path; routes other teams add are covered as they land. */
const OPERATIONS: Array<{ method: string; path: string }> = Object.entries(openApiDocument.paths).flatMap(
  ([path, item]) =>
    Object.keys(item as object).map((method) => ({
      method: method.toUpperCase(),
      path: path.replace('{jobId}', 'job-0123456789'),
    })),
);

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies no route should answer with a 500, whatever it expects. */
const HOSTILE_BODIES: Array<{ name: string; headers: Record<string, string>; body: string | Buffer }> = [
  { name: 'malformed JSON', headers: JSON_TYPE, body: '{"url": ' },
  { name: 'a body over the limit', headers: JSON_TYPE, body: JSON.stringify({ url: 'x'.repeat(200_000) }) },
  { name: 'nested 10,000 levels', headers: JSON_TYPE, body: nested(10_000) },
  { name: 'nested 10,000 levels in a field', headers: JSON_TYPE, body: `{"url":${nested(10_000)}}` },
  {
    name: 'a __proto__ key',
    headers: JSON_TYPE,
    body: '{"url":"https://www.youtube.com/watch?v=abc","__proto__":{"admin":true}}',
  },
  { name: 'a constructor.prototype key', headers: JSON_TYPE, body: '{"constructor":{"prototype":{"admin":true}}}' },
  { name: 'an array', headers: JSON_TYPE, body: '[]' },
  { name: 'a string', headers: JSON_TYPE, body: '"x"' },
  { name: 'null', headers: JSON_TYPE, body: 'null' },
  {
    name: 'a number too large',
    headers: JSON_TYPE,
    body: '{"url":"https://www.youtube.com/watch?v=abc","startTime":1e400}',
  },
  { name: 'an empty JSON body', headers: JSON_TYPE, body: '' },
  { name: 'a form body', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'url=x' },
  {
    name: 'a JSON body in another charset',
    headers: { 'Content-Type': 'application/json; charset=utf-7' },
    body: '{}',
  },
  { name: 'no Content-Type', headers: {}, body: '{}' },
  { name: 'gzip that is not', headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, body: '{"url":"x"}' },
  { name: 'deflate that is not', headers: { ...JSON_TYPE, 'Content-Encoding': 'deflate' }, body: '{"url":"x"}' },
  { name: 'brotli that is not', headers: { ...JSON_TYPE, 'Content-Encoding': 'br' }, body: '{"url":"x"}' },
  { name: 'a list of encodings', headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip, br' }, body: '{"url":"x"}' },
  { name: 'an unknown encoding', headers: { ...JSON_TYPE, 'Content-Encoding': 'zstd' }, body: '{"url":"x"}' },
  { name: 'invalid UTF-8', headers: JSON_TYPE, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
];

/** Submissions whose fields break a rule, and the field the 400 must name. */
const HOSTILE_SUBMISSIONS: Array<{ body: Record<string, unknown>; names: RegExp }> = [
  { body: { url: 'http:\\\\www.youtube.com\\watch?v=abc' }, names: /^url / },
  { body: { url: 'https://%77ww.youtube.com/watch?v=abc' }, names: /^url / },
  { body: { url: 'https://2130706433/watch?v=abc' }, names: /^url / },
  { body: { url: 'https://www.youtube.com/watch?v=abc&v=def' }, names: /^url / },
  { body: { url: `https://www.youtube.com/watch?v=abc&pad=${'x'.repeat(20_000)}` }, names: /^url / },
  { body: { url: 'javascript:alert(1)' }, names: /^url / },
  { body: { url: '' }, names: /^url / },
  { body: { url: 42 }, names: /^url / },
  { body: { url: null }, names: /^url / },
  { body: {}, names: /^url is required/ },
  { body: { url: 'https://www.youtube.com/watch?v=abc', startTime: -1 }, names: /^startTime / },
  { body: { url: 'https://www.youtube.com/watch?v=abc', startTime: '3' }, names: /^startTime / },
  { body: { url: 'https://www.youtube.com/watch?v=abc', endTime: 0 }, names: /^endTime / },
  {
    body: { url: 'https://www.youtube.com/watch?v=abc', startTime: 9, endTime: 3 },
    names: /endTime must be greater than startTime/,
  },
  { body: { url: 'https://www.youtube.com/watch?v=abc', startTime: 600 }, names: /^startTime / },
  { body: { url: 'https://www.youtube.com/watch?v=abc', format: '4k' }, names: /^format / },
  {
    body: { url: 'https://www.youtube.com/watch?v=abc', language: `en${'-abcdefgh'.repeat(3000)}` },
    names: /^language must be at most 35 characters/,
  },
  { body: { url: 'https://www.youtube.com/watch?v=abc', language: 'english!' }, names: /^language / },
  { body: { url: 'https://www.youtube.com/watch?v=abc', webhookUrl: 42 }, names: /^webhookUrl must be a string/ },
  {
    body: { url: 'https://www.youtube.com/watch?v=abc', webhookUrl: { href: 'x' } },
    names: /^webhookUrl must be a string/,
  },
  ...[
    'https://.example.com/h',
    'https://example..com/h',
    'https://-.com/h',
    'https://hooks.test/h',
    'https://x.invalid/h',
    'https://x.onion/h',
    'https://x.localhost/h',
    'https://hooks.example.com:0/h',
    'http://10.0.0.1/h',
    'http://[::1]/h',
  ].map((webhookUrl) => ({ body: { url: 'https://www.youtube.com/watch?v=abc', webhookUrl }, names: /^webhookUrl / })),
  { body: { url: 'https://www.youtube.com/watch?v=abc', extra: true }, names: /unknown field: extra/ },
];

/** Job ids no client should see echoed back. */
const HOSTILE_IDS = [
  '%00',
  'a%00b',
  'a%0Ab',
  'a%0D%0AX-Injected:%201',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  'x'.repeat(8_000),
  '..%2F..%2Fetc%2Fpasswd',
  '%E2%80%AE',
  '%ZZ',
  'a%20b',
];

describe('HTTP: no bad input gets a 500, every refusal is JSON {error}', function () {
  this.timeout(180_000);
  let service: TestService;
  let ownKey: string;
  let otherKey: string;
  let send: (
    method: string,
    path: string,
    headers?: Record<string, string>,
    body?: string | Buffer,
  ) => Promise<RawResponse>;

  before(async () => {
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'http_bad_input',
      // Lookups answer at once, so hostile submissions that pass validation never wait or reach a network.
      overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
    });
    send = (method, path, headers = {}, body) => rawRequest(service.url, method, path, headers, body);
    ({ apiKey: ownKey } = await service.createAccount());
    ({ apiKey: otherKey } = await service.createAccount({ email: 'other@example.com' }));
  });
  after(async () => service?.stop());

  const label = (method: string, path: string, extra = '') =>
    `${method} ${path.slice(0, 120)}${extra === '' ? '' : ` (${extra})`}`;

  /** The rule of this whole file. */
  const assertClean = (response: RawResponse, what: string) => {
    // 501 is the answer for a method the server does not implement; nothing else may be 5xx.
    assert.ok(
      response.status < 500 || response.status === 501,
      `${what}: ${response.status} ${response.text.slice(0, 200)}`,
    );
    // A stack frame's shape without `.+`: that backtracked for seconds over the 70 kB OpenAPI document, holding up the server's loop too.
    assert.doesNotMatch(
      response.text,
      /\bat \S+ \([^()\s]+:\d+:\d+\)|node_modules|\/build\//,
      `${what}: a stack trace or a path in the body`,
    );
    if (response.status >= 400) {
      assert.match(
        String(response.headers['content-type']),
        /application\/json/,
        `${what}: ${response.status} is not JSON`,
      );
      assert.equal(typeof response.body?.error, 'string', `${what}: no error message`);
    }
  };

  it('answers 401 on every operation, under every prefix in every letter case, without a usable key', async () => {
    const credentials: Array<[string, Record<string, string>]> = [
      ['no key', {}],
      ['a foreign key', { Authorization: 'Bearer vds_not-ours' }],
      ['an empty bearer', { Authorization: 'Bearer' }],
      ['two tokens', { Authorization: 'Bearer a b' }],
      ['another scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['a huge key', { Authorization: `Bearer ${'k'.repeat(10_000)}` }],
    ];
    for (const prefix of PREFIXES) {
      for (const { method, path } of OPERATIONS) {
        for (const [name, headers] of credentials) {
          const what = label(method, prefix + path, name);
          const response = await send(
            method,
            prefix + path,
            { ...headers, ...JSON_TYPE },
            method === 'POST' ? '{"url":"https://www.youtube.com/watch?v=abc"}' : undefined,
          );
          assertClean(response, what);
          if (path !== '/openapi.json') assert.equal(response.status, 401, what);
        }
      }
    }
  });

  it('refuses hostile bodies on every operation and on paths outside the API, with or without a key', async () => {
    const paths = [
      ...OPERATIONS.map(({ method, path }) => ({ method, path: `/api/v2${path}` })),
      { method: 'POST', path: '/V2/download' },
      { method: 'POST', path: '/nowhere' },
      { method: 'POST', path: '/healthz' },
    ];
    for (const { method, path } of paths) {
      for (const { name, headers, body } of HOSTILE_BODIES) {
        for (const key of [ownKey, undefined]) {
          const auth: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
          for (const verb of new Set([method, 'POST', 'PUT'])) {
            assertClean(
              await send(verb, path, { ...auth, ...headers }, body),
              label(verb, path, `${name}${key === undefined ? ', no key' : ''}`),
            );
          }
        }
      }
    }
  });

  it('answers a submission that breaks a field rule with 400 naming the field', async () => {
    for (const { body, names } of HOSTILE_SUBMISSIONS) {
      const what = JSON.stringify(body).slice(0, 120);
      const response = await send(
        'POST',
        '/api/v2/download',
        { Authorization: `Bearer ${ownKey}`, ...JSON_TYPE },
        JSON.stringify(body),
      );
      assertClean(response, what);
      assert.equal(response.status, 400, `${what}: ${response.text.slice(0, 200)}`);
      assert.match(response.body.error, names, what);
    }
  });

  it('names the encoding, the nesting and __proto__ in their refusals', async () => {
    const auth = { Authorization: `Bearer ${ownKey}` };
    const encodings = await send(
      'POST',
      '/api/v2/download',
      { ...auth, ...JSON_TYPE, 'Content-Encoding': 'gzip, br' },
      '{}',
    );
    assert.equal(encodings.status, 415);
    assert.match(encodings.body.error, /Content-Encoding/);
    const proto = await send(
      'POST',
      '/api/v2/download',
      { ...auth, ...JSON_TYPE },
      '{"url":"https://www.youtube.com/watch?v=abc","__proto__":{}}',
    );
    assert.equal(proto.status, 400);
    assert.match(proto.body.error, /__proto__/);
    const deep = await send('POST', '/api/v2/download', { ...auth, ...JSON_TYPE }, nested(10_000));
    assert.equal(deep.status, 400);
    assert.match(deep.body.error, /nested/);
    const infinite = await send(
      'POST',
      '/api/v2/download',
      { ...auth, ...JSON_TYPE },
      '{"url":"https://www.youtube.com/watch?v=abc","startTime":1e400}',
    );
    assert.equal(infinite.status, 400);
    assert.match(infinite.body.error, /^startTime /);
  });

  it('answers 404 to hostile job ids without echoing them, on every operation taking a job id, with any key', async () => {
    const jobOperations = OPERATIONS.filter(({ path }) => path.endsWith('job-0123456789')).map(({ method, path }) => ({
      method,
      base: path.replace('job-0123456789', ''),
    }));
    assert.ok(jobOperations.some(({ method, base }) => method === 'GET' && base === '/download/'));
    assert.ok(jobOperations.some(({ method, base }) => method === 'DELETE' && base === '/download/'));
    for (const { method, base } of jobOperations) {
      for (const id of HOSTILE_IDS) {
        for (const key of [ownKey, otherKey]) {
          const what = label(method, `/api/v2${base}${id}`);
          const response = await send(method, `/api/v2${base}${id}`, { Authorization: `Bearer ${key}` });
          assertClean(response, what);
          assert.equal(response.status, 404, what);
          assert.ok(response.body.error.length < 200, `${what}: the id is echoed`);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: an echoed id must not carry control characters.
          assert.doesNotMatch(response.body.error, /[\u0000-\u001f<>]|script/, `${what}: the id is echoed`);
        }
      }
    }
  });

  it('keeps answers outside the API clean for every method, including ones the server does not know', async () => {
    const paths = [
      '/healthz',
      '/readyz',
      '/metrics',
      '/nowhere',
      '/files/a/b',
      '/files/YQ==/x.m4a?expires=0999&signature=zz',
      `/files/${'%00'.repeat(100)}/x`,
      '/%2e%2e/%2e%2e/etc/passwd',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE']) {
        const response = await send(
          method,
          path,
          { 'Content-Encoding': 'br', ...JSON_TYPE },
          method === 'GET' || method === 'HEAD' ? undefined : 'not brotli',
        );
        if (method === 'HEAD') assert.ok(response.status < 500 || response.status === 501, label(method, path));
        else assertClean(response, label(method, path));
      }
    }
    const methodNotAllowed = await send('DELETE', '/healthz');
    assert.equal(methodNotAllowed.status, 405);
    assert.match(String(methodNotAllowed.headers.allow), /GET/);
  });

  it('answers 405 with Allow, and OPTIONS with the methods, for an API route under every prefix', async () => {
    const auth = { Authorization: `Bearer ${ownKey}` };
    for (const prefix of PREFIXES) {
      const put = await send('PUT', `${prefix}/download`, { ...auth, ...JSON_TYPE }, '{}');
      assert.equal(put.status, 405, label('PUT', `${prefix}/download`));
      assert.equal(put.headers.allow, 'POST');
      assertClean(put, label('PUT', `${prefix}/download`));
      const options = await send('OPTIONS', `${prefix}/download/${randomUUID()}`, auth);
      assert.equal(options.status, 200, label('OPTIONS', `${prefix}/download/{jobId}`));
      assert.deepEqual(String(options.headers.allow).split(', ').sort(), ['DELETE', 'GET', 'HEAD']);
    }
  });

  it('answers what the HTTP parser refuses (malformed requests, huge headers) in JSON too', async () => {
    const { hostname, port } = new URL(service.url);
    const exchange = (raw: string) =>
      new Promise<string>((resolve) => {
        let answer = '';
        const socket = connect(Number(port), hostname, () => socket.write(raw));
        socket.on('data', (data) => {
          answer += data.toString('utf8');
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });
    const cases: Array<[string, RegExp]> = [
      ['NOT A REQUEST\r\n\r\n', /^HTTP\/1\.1 400 /],
      ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n', /^HTTP\/1\.1 400 /],
      [`GET /api/v2/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`, /^HTTP\/1\.1 431 /],
      [
        'POST /api/v2/download HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        /^HTTP\/1\.1 400 /,
      ],
    ];
    for (const [raw, status] of cases) {
      const answer = await exchange(raw);
      assert.match(answer, status, raw.slice(0, 60));
      assert.match(answer, /content-type: application\/json/i, raw.slice(0, 60));
      assert.match(answer, /\r\n\r\n\{"error":"[^"]+"\}$/, raw.slice(0, 60));
    }
  });
});
