import assert from 'node:assert/strict';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { DEFAULT_PLAN_CATALOG } from '../../infrastructure/config/plan-catalog.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('HTTP: GET /me', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let admin: AccountAdministration;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_me' });
    call = apiClient(service.url);
    admin = service.service.container.resolve(AccountAdministration);
  });
  after(async () => service?.stop());

  it('shows a free account with one-off balances and no add-ons', async () => {
    const { apiKey } = await service.createAccount({ planId: 'free', name: 'Free Fran', email: 'fran@example.com' });
    const response = await call('GET', '/api/v2/me', { key: apiKey });
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'Free Fran');
    assert.equal(response.body.email, 'fran@example.com');
    assert.deepEqual(response.body.plan, { id: 'free', renewsAt: null, canceledAt: null });
    assert.deepEqual(Object.keys(response.body.balances).sort(), ['bandwidth_mb', 'download_count', 'info']);
    const free = DEFAULT_PLAN_CATALOG.free.allowances;
    assert.deepEqual(response.body.balances.download_count, {
      granted: free.download_count,
      used: 0,
      remaining: free.download_count,
      unlimited: false,
      resetsAt: null,
    });
  });

  it('shows add-on balances only when enabled, and reflects grants, plan changes and cancellation', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter', addOns: ['channel_list'] });
    let me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
    assert.deepEqual(Object.keys(me.balances).sort(), ['bandwidth_mb', 'channel_list', 'download_count', 'info']);
    assert.equal(typeof me.plan.renewsAt, 'number');
    assert.ok(me.plan.renewsAt > Date.now());
    assert.equal(me.balances.info.resetsAt, me.plan.renewsAt);

    await admin.grantExtraUnits(accountId, 'info', 25, 'support credit');
    await admin.setAddOn(accountId, 'client_download', true);
    await admin.changePlan(accountId, 'growth');
    await admin.scheduleCancellation(accountId);
    await service.settle();
    me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
    assert.equal(me.plan.id, 'growth');
    assert.equal(typeof me.plan.canceledAt, 'number');
    assert.deepEqual(Object.keys(me.balances).sort(), [
      'bandwidth_mb',
      'channel_list',
      'client_download',
      'download_count',
      'info',
    ]);
    const growthInfo = DEFAULT_PLAN_CATALOG.growth.allowances.info as number;
    assert.equal(me.balances.info.granted, growthInfo + 25);
    assert.equal(me.balances.info.remaining, growthInfo + 25);

    await admin.setAddOn(accountId, 'channel_list', false);
    await service.settle();
    me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
    assert.ok(!('channel_list' in me.balances));
  });

  it('shows unlimited features on the custom plan', async () => {
    const { apiKey } = await service.createAccount({ planId: 'custom' });
    const me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
    assert.equal(me.balances.bandwidth_mb.unlimited, true);
  });

  it('stops accepting a revoked key and accepts a newly issued one', async () => {
    const { accountId, apiKey } = await service.createAccount();
    assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
    const second = await admin.issueKey(accountId);
    await service.settle();
    assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 200);
    await admin.revokeKey(accountId, second.keyId);
    await service.settle();
    assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 401);
    assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
  });

  it('is never charged, however often it is called', async () => {
    const { apiKey } = await service.createAccount();
    const before = (await call('GET', '/api/v2/me', { key: apiKey })).body.balances;
    for (let i = 0; i < 20; i += 1) await call('GET', '/api/v2/me', { key: apiKey });
    assert.deepEqual((await call('GET', '/api/v2/me', { key: apiKey })).body.balances, before);
  });
});
