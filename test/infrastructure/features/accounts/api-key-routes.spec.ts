import assert from 'node:assert/strict';
import { apiClient } from '../../../support/api-client.js';
import { type TestService, startTestService } from '../../../support/test-service.js';
import { waitFor } from '../../../support/wait-for.js';

describe('HTTP: an account holder’s own keys (/me/keys)', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_api_keys' });
    call = apiClient(service.url);
  });
  after(async () => service?.stop());

  it('issues a named key shown once, lists every key without secrets, and revokes one', async () => {
    const account = await service.createAccount();
    const issued = await call('POST', '/api/v2/me/keys', { key: account.apiKey, json: { name: 'staging' } });
    assert.equal(issued.status, 201);
    assert.equal(issued.body.name, 'staging');
    const second: string = issued.body.apiKey;
    await waitFor('the new key works', async () => (await call('GET', '/api/v2/me', { key: second })).status === 200);

    const listed = await call('GET', '/api/v2/me/keys', { key: second });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.keys.map((key: { name: string | null; revokedAt: string | null }) => [key.name, key.revokedAt]),
      [
        [null, null],
        ['staging', null],
      ],
    );
    const text = JSON.stringify(listed.body);
    assert.ok(!text.includes(account.apiKey) && !text.includes(second), 'no secret listed');
    assert.ok(second.startsWith(listed.body.keys[1].prefix));

    // Revoking the key the request is made with is allowed.
    const revoked = await call('DELETE', `/api/v2/me/keys/${issued.body.keyId}`, { key: second });
    assert.equal(revoked.status, 204);
    // Answered once key lookups drop it: the very next request with it is refused.
    assert.equal((await call('GET', '/api/v2/me', { key: second })).status, 401);
    const after = await call('GET', '/api/v2/me/keys', { key: account.apiKey });
    assert.equal(typeof after.body.keys[1].revokedAt, 'string');
    assert.equal(
      (await call('DELETE', `/api/v2/me/keys/${issued.body.keyId}`, { key: account.apiKey })).status,
      204,
      'a second revocation does nothing',
    );
  });

  it('answers 404 for another account’s key or a malformed id, and 400 naming a bad field', async () => {
    const mine = await service.createAccount();
    const theirs = await service.createAccount();
    const theirKeys = (await call('GET', '/api/v2/me/keys', { key: theirs.apiKey })).body.keys;
    const foreign = await call('DELETE', `/api/v2/me/keys/${theirKeys[0].keyId}`, { key: mine.apiKey });
    assert.equal(foreign.status, 404);
    assert.equal((await call('GET', '/api/v2/me', { key: theirs.apiKey })).status, 200, 'their key still works');
    assert.equal((await call('DELETE', '/api/v2/me/keys/not%20an%20id', { key: mine.apiKey })).status, 404);
    for (const json of [{ name: '' }, { name: 'x'.repeat(101) }, { name: 7 }, { label: 'x' }]) {
      const response = await call('POST', '/api/v2/me/keys', { key: mine.apiKey, json });
      assert.equal(response.status, 400, JSON.stringify(json));
      assert.match(response.body.error, /name|label/, JSON.stringify(json));
    }
  });

  it('holds an account to 20 active keys, however many requests race', async () => {
    const account = await service.createAccount();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => call('POST', '/api/v2/me/keys', { key: account.apiKey, json: {} })),
    );
    assert.equal(answers.filter((answer) => answer.status === 201).length, 19, 'the first key and 19 more');
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      assert.equal(refused.status, 400);
      assert.match(refused.body.error, /at most 20 active API keys/);
    }
  });

  it('issues a read-only key that polls and lists, and is refused every other method with 403', async () => {
    const account = await service.createAccount();
    const issued = await call('POST', '/api/v2/me/keys', {
      key: account.apiKey,
      json: { name: 'monitor', readOnly: true },
    });
    assert.equal(issued.status, 201);
    assert.equal(issued.body.readOnly, true);
    const monitor: string = issued.body.apiKey;
    await waitFor('the new key works', async () => (await call('GET', '/api/v2/me', { key: monitor })).status === 200);
    for (const path of ['/api/v2/downloads', '/api/v2/me/keys', '/v2/subscriptions'])
      assert.equal((await call('GET', path, { key: monitor })).status, 200, path);
    for (const [method, path, json] of [
      ['POST', '/api/v2/download', { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
      ['POST', '/api/v2/me/keys', {}],
      ['DELETE', `/api/v2/me/keys/${issued.body.keyId}`, undefined],
      ['POST', '/API/V1/info', { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
    ] as const) {
      const refused = await call(method, path, { key: monitor, json });
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.match(refused.body.error, /^This API key is read-only/);
    }
    const keys = (await call('GET', '/api/v2/me/keys', { key: account.apiKey })).body.keys;
    assert.deepEqual(
      keys.map((key: { readOnly: boolean }) => key.readOnly),
      [false, true],
    );
  });

  it('shows when each key was last used, to the minute; never for a key not used', async () => {
    const account = await service.createAccount();
    const unused = await call('POST', '/api/v2/me/keys', { key: account.apiKey, json: { name: 'spare' } });
    const keys = await waitFor('the first key’s use recorded', async () => {
      const listed = (await call('GET', '/api/v2/me/keys', { key: account.apiKey })).body.keys;
      return listed[0].lastUsedAt === null ? null : listed;
    });
    assert.ok(Math.abs(Date.parse(keys[0].lastUsedAt) - Date.now()) < 120_000);
    assert.equal(keys.find((key: { keyId: string }) => key.keyId === unused.body.keyId).lastUsedAt, null);
  });
});
