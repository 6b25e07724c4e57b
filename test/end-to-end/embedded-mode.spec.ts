import assert from 'node:assert/strict';
import { FIXTURE_VIDEOS, type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('end to end in embedded mode: PGlite and the in-process work queue, no servers', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({ embedded: true, env: serviceEnvFor(platform) });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  it('says in /readyz that it runs embedded, with its database, event store and work queue ready', async () => {
    assert.equal(service.config.mode, 'embedded');
    const ready = await call('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.mode, 'embedded');
    assert.deepEqual(ready.body.checks, { postgres: 'ok', eventStore: 'ok', workQueue: 'ok' });
  });

  it('takes a download from submit to COMPLETED and serves the file', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) } });
    assert.equal(submitted.status, 200);
    assert.equal(submitted.body.status, 'IN_QUEUE');
    const deadline = Date.now() + 90_000;
    let job = submitted.body;
    while (job.status !== 'COMPLETED' && job.status !== 'FAILED') {
      assert.ok(Date.now() < deadline, `job still ${job.status}`);
      await sleep(200);
      job = (await call('GET', `/api/v2/download/${submitted.body.jobId}`, { key: apiKey })).body;
    }
    assert.equal(job.status, 'COMPLETED');
    assert.ok(job.fileSize > 0);
    const file = await fetch(job.downloadUrl);
    assert.equal(file.status, 200);
    assert.equal(Buffer.from(await file.arrayBuffer()).length, job.fileSize);

    const me = await call('GET', '/api/v2/me', { key: apiKey });
    assert.equal(me.status, 200);
  });
});
