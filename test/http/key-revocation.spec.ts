import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

for (const embedded of [false, true])
  describe(`HTTP: a revoked key with keys cached in memory (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(60_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;

    before(async () => {
      // A long TTL, so only the revocation's notification can take the key out of the cache in time.
      service = await startTestService({
        roles: ['api', 'projector'],
        label: 'key_revocation',
        embedded,
        env: { API_KEY_CACHE_TTL_SECONDS: '3600' },
      });
      call = apiClient(service.url);
    });
    after(async () => service?.stop());

    it('is refused on the very next request once the revocation is visible', async () => {
      const admin = service.service.container.resolve(AccountAdministration);
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const { accountId, apiKey } = await service.createAccount();
      const second = await admin.issueKey(accountId);
      await service.settle();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 200);
      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 200);

      await admin.revokeKey(accountId, second.keyId);
      while ((await db('api_keys').where('key_id', second.keyId).whereNotNull('revoked_at').first()) === undefined) {
        await new Promise((resolve) => setImmediate(resolve));
      }

      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 401);
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200, 'the account keeps its other key');
    });

    it('answers a key it has seen from memory', async () => {
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const { apiKey, accountId } = await service.createAccount();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
      // Behind the projection's back: only a request that never reads the key row still succeeds.
      await db('api_keys').where('account_id', accountId).delete();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
    });
  });
