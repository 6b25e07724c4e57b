import assert from 'node:assert/strict';
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { type TestService, startTestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('HTTP: /readyz shows a data-directory lock whose heartbeat cannot be written (embedded mode)', function () {
  this.timeout(120_000);
  let service: TestService;

  before(async () => {
    service = await startTestService({ roles: ['api'], label: 'lock_readiness', embedded: true });
  });
  after(async () => service?.stop());

  const readiness = async () => {
    const response = await fetch(`${service.url}/readyz`);
    return { status: response.status, body: (await response.json()) as { checks: Record<string, string> } };
  };

  it('answers 503 naming the lock while its heartbeat fails, and ready again by itself once it beats', async () => {
    const directory = service.config.storage.embeddedDataDir;
    const [owner] = (await readdir(directory)).filter((file) => /^owner\.\d+\.pid$/.test(file));
    assert.ok(owner !== undefined, 'the directory has an owner file');
    const file = path.join(directory, owner);
    const aside = path.join(directory, 'aside');
    assert.deepEqual(await readiness().then(({ status, body }) => [status, body.checks.dataDirectoryLock]), [
      200,
      'ok',
    ]);
    try {
      // Its file gone (a vanished or remounted volume): the heartbeat has nothing to write to.
      await rename(file, aside);
      await waitFor(
        '/readyz to say the lock is unavailable',
        async () => {
          const { status, body } = await readiness();
          return status === 503 && body.checks.dataDirectoryLock === 'unavailable';
        },
        20_000,
      );
    } finally {
      await rename(aside, file);
    }
    await waitFor(
      '/readyz to be ready again',
      async () => {
        const { status, body } = await readiness();
        return status === 200 && body.checks.dataDirectoryLock === 'ok';
      },
      20_000,
    );
  });
});
