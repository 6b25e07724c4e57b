import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AccountCommandHandler } from '../../application/accounts/account-commands.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('POST /download with an Idempotency-Key', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    // No worker role: admitted jobs stay queued, so what is reserved can be counted.
    service = await startTestService({
      label: 'idempotency',
      roles: ['api', 'projector'],
      env: serviceEnvFor(platform),
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  async function pendingJobs(accountId: string): Promise<string[]> {
    const { state } = await service.service.container
      .resolve<AccountCommandHandler>(TOKENS.accountCommands)
      .load(accountId);
    return state.pendingJobs;
  }

  it('answers simultaneous and later repeats with the first answer and reserves once; another request with the key gets 422', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    const headers = { 'Idempotency-Key': randomUUID() };
    const repeats = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/api/v2/download', { key: apiKey, json: { url }, headers })),
    );
    assert.deepEqual(
      repeats.map((response) => response.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(new Set(repeats.map((response) => response.body.jobId)).size, 1, 'one job for every repeat');
    assert.deepEqual(await pendingJobs(accountId), [repeats[0].body.jobId]);

    const later = await call('POST', '/api/v2/download', { key: apiKey, json: { url, format: 'audio' }, headers });
    assert.equal(later.status, 200, 'the default format spelled out is the same request');
    assert.deepEqual(later.body, repeats[0].body);

    const different = await call('POST', '/api/v2/download', { key: apiKey, json: { url, format: '360' }, headers });
    assert.equal(different.status, 422);
    assert.match(different.body.error, /Idempotency-Key/);
    assert.equal((await pendingJobs(accountId)).length, 1);

    const fresh = await call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    assert.equal(fresh.status, 200);
    assert.notEqual(fresh.body.jobId, repeats[0].body.jobId, 'another key is another job');
  });

  it('keeps keys per account', async () => {
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await service.createAccount({ planId: 'starter' });
    const second = await service.createAccount({ planId: 'starter' });
    const one = await call('POST', '/api/v2/download', { key: first.apiKey, json: { url }, headers });
    const other = await call('POST', '/api/v2/download', { key: second.apiKey, json: { url, format: '360' }, headers });
    assert.equal(one.status, 200);
    assert.equal(other.status, 200);
    assert.notEqual(one.body.jobId, other.body.jobId);
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const response = await call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    assert.equal(response.status, 400);
    assert.match(response.body.error, /^Idempotency-Key header/);
  });
});
