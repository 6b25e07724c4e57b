import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('limits under concurrency', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    // No worker role: admitted jobs stay queued, so the pending limit is what is measured.
    service = await startTestService({
      label: 'concurrency',
      roles: ['api', 'projector'],
      env: serviceEnvFor(platform),
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  it('admits exactly 100 of 150 simultaneous submissions by one account; the rest get 429 and leave nothing behind', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    const responses = await Promise.all(
      Array.from({ length: 150 }, () => call('POST', '/api/v2/download', { key: apiKey, json: { url } })),
    );
    const accepted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    assert.equal(accepted.length, 100);
    assert.equal(refused.length, 50);
    for (const response of refused) {
      assert.equal(response.headers.get('x-pending-downloads'), '100');
      assert.equal(response.headers.get('x-pending-downloads-limit'), '100');
    }
    assert.equal(new Set(accepted.map((response) => response.body.jobId)).size, 100);

    await service.settle();
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const [{ count }] = await db('download_jobs')
      .where('account_id', accountId)
      .count<{ count: string }[]>('* as count');
    assert.equal(Number(count), 100);
    const me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
    assert.equal(me.balances.download_count.used, 0, 'submitting is free');
  });

  it('answers 403 "Credit limit reached" once the quota is used up, even under concurrency', async () => {
    const { apiKey } = await service.createAccount({ planId: 'free' });
    const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => call('POST', '/api/v2/download', { key: apiKey, json: { url } })),
    );
    const accepted = responses.filter((response) => response.status === 200).length;
    // The free plan's 1000 MB hold 50 minimum charges, its 10 downloads fewer: the download quota binds.
    assert.equal(accepted, 10);
    for (const response of responses.filter((r) => r.status !== 200)) {
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { error: 'Credit limit reached' });
    }
  });
});
