import assert from 'node:assert/strict';
import { AccountAdministration } from '../../../../application/accounts/account-administration.js';
import { TOKENS } from '../../../../infrastructure/composition/tokens.js';
import { apiClient } from '../../../support/api-client.js';
import { givenQueuedDownload } from '../../../support/givens/given-download.js';
import { type TestService, startTestService } from '../../../support/test-service.js';
import { waitFor } from '../../../support/wait-for.js';

describe('HTTP: GET /me/export', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_export' });
    call = apiClient(service.url);
  });
  after(async () => service?.stop());

  it('holds the profile, every key without its secret, the jobs and the statement, and nothing of another account', async () => {
    const account = await service.createAccount({ planId: 'starter', name: 'Export Eve', email: 'eve@example.com' });
    const other = await service.createAccount({ planId: 'starter' });
    const admin = service.service.container.resolve(AccountAdministration);
    const second = await admin.issueKey(account.accountId);
    await admin.revokeKey(account.accountId, second.keyId);
    const store = service.service.container.resolve(TOKENS.storage).eventStore;
    const mine = await givenQueuedDownload(store, { accountId: account.accountId });
    const theirs = await givenQueuedDownload(store, { accountId: other.accountId });
    await service.settle();
    await waitFor('the job in the read model', async () => {
      const response = await call('GET', `/api/v2/download/${mine}`, { key: account.apiKey });
      return response.status === 200;
    });

    const response = await call('GET', '/api/v2/me/export', { key: account.apiKey });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="account-.*\.json"/);
    const exported = response.body;
    assert.equal(exported.accountId, account.accountId);
    assert.equal(exported.profile.email, 'eve@example.com');
    assert.deepEqual(exported.profile, (await call('GET', '/api/v2/me', { key: account.apiKey })).body);
    assert.equal(exported.keys.length, 2);
    assert.equal(exported.keys.filter((key: { revokedAt: string | null }) => key.revokedAt !== null).length, 1);
    assert.deepEqual(
      exported.jobs.map((job: { jobId: string }) => job.jobId),
      [mine],
    );
    assert.deepEqual(exported.webhookDeliveries, []);
    assert.deepEqual(
      exported.statement.map((entry: { kind: string }) => entry.kind),
      ['period'],
    );
    const text = JSON.stringify(exported);
    for (const secret of [account.apiKey, second.apiKey, 'keyHash', 'encryptedKey', theirs, other.accountId])
      assert.ok(!text.includes(secret), `the export holds ${secret}`);
  });
});
