import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../../../infrastructure/config/config-error.js';
import { type TestService, startTestService } from '../../support/test-service.js';

describe('composition: a process whose master key does not wrap the data keys', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    service = await startTestService({ roles: ['api'], label: 'master_key_check' });
    await service.createAccount({ email: 'sealed@example.com' });
  });
  after(async () => service?.stop());

  const startBeside = (env: Record<string, string>) =>
    startTestService({
      roles: ['api'],
      label: 'master_key_other',
      databaseUrl: () => service.config.storage.databaseUrl,
      env,
    });

  it('refuses to start, naming MASTER_KEY, and starts once the old key is given as a previous one', async () => {
    const other = randomBytes(32).toString('hex');
    await assert.rejects(startBeside({ MASTER_KEY: other }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /MASTER_KEY does not open the accounts' data keys/);
      return true;
    });
    const previous = (await readFile(service.config.security.masterKeyFile, 'utf8')).trim();
    const rotated = await startBeside({ MASTER_KEY: other, PREVIOUS_MASTER_KEYS: previous });
    await rotated.stop();
  });
});
