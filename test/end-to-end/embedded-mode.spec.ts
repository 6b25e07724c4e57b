import assert from 'node:assert/strict';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

// The download journey itself runs in both modes in download-job.spec.ts.
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
    assert.deepEqual(ready.body.checks, {
      postgres: 'ok',
      eventStore: 'ok',
      workQueue: 'ok',
      projections: 'ok',
      relay: 'ok',
      workConsumers: 'ok',
      liveStatus: 'ok',
      dataDirectoryLock: 'ok',
    });
  });
});
