import assert from 'node:assert/strict';
import { FIXTURE_GROWING_CHANNEL } from '../fixtures/platform/fixture-list-catalog.js';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** No worker runs here, so no check runs: these specs are about the requests alone. */
describe('/subscriptions: bad input, add-on, plan allowance under concurrency, other accounts, changes and paging', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let key: string;
  let otherKey: string;

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'subscription_http',
      env: serviceEnvFor(platform),
    });
    call = apiClient(service.url);
    key = (await service.createAccount({ planId: 'growth', addOns: ['channel_list'] })).apiKey;
    otherKey = (await service.createAccount({ planId: 'growth', addOns: ['channel_list'] })).apiKey;
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  const channelUrl = () => platform.pageUrl(`/${FIXTURE_GROWING_CHANNEL.handle}`);
  const subscribe = (apiKey: string, json: object = {}) =>
    call('POST', '/api/v2/subscriptions', { key: apiKey, json: { channelUrl: channelUrl(), ...json } });

  it('answers 400 naming the field for a bad request', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ format: 'audio' }, /exactly one of channelUrl or playlistUrl/],
      [{ channelUrl: channelUrl(), playlistUrl: platform.playlistUrl() }, /exactly one of channelUrl or playlistUrl/],
      [{ channelUrl: 'https://example.com/@x' }, /channelUrl/],
      [{ playlistUrl: platform.watchUrl('x') }, /playlistUrl/],
      [{ channelUrl: channelUrl(), checkEveryMinutes: 14 }, /checkEveryMinutes/],
      [{ channelUrl: channelUrl(), checkEveryMinutes: 30.5 }, /checkEveryMinutes/],
      [{ channelUrl: channelUrl(), start: 'latest:0' }, /start/],
      [{ channelUrl: channelUrl(), start: 'LATEST:5' }, /start/],
      [{ channelUrl: channelUrl(), start: 'latest:501' }, /start/],
      [{ channelUrl: channelUrl(), format: 'gif' }, /format/],
      [{ channelUrl: channelUrl(), webhookUrl: 'http://127.0.0.1/hook' }, /webhookUrl/],
      [{ channelUrl: channelUrl(), extra: 1 }, /extra/],
    ];
    for (const [json, message] of cases) {
      const response = await call('POST', '/api/v2/subscriptions', { key, json });
      assert.equal(response.status, 400, `${JSON.stringify(json).slice(0, 80)}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error, message);
    }
  });

  it('answers 403 without the channel_list add-on, 401 without a key, and is served under every prefix', async () => {
    const plain = (await service.createAccount({ planId: 'growth' })).apiKey;
    const refused = await subscribe(plain);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'The channel_list add-on is not enabled for this account');
    for (const prefix of ['/api/v2', '/API/V1', '/v2']) {
      assert.equal((await call('GET', `${prefix}/subscriptions`)).status, 401);
      assert.equal((await call('GET', `${prefix}/subscriptions`, { key })).status, 200);
    }
  });

  it('holds a plan to its allowance when creations race: the starter plan gets exactly 10 of 14 at once, /me shows them, and a deletion frees one', async () => {
    const starter = (await service.createAccount({ planId: 'starter', addOns: ['channel_list'] })).apiKey;
    const answers = await Promise.all(Array.from({ length: 14 }, () => subscribe(starter)));
    const count = (status: number) => answers.filter((answer) => answer.status === status).length;
    assert.deepEqual([count(201), count(409)], [10, 4], JSON.stringify(answers.map((answer) => answer.body)));
    const refused = answers.find((answer) => answer.status === 409);
    assert.match(refused?.body.error, /plan allows 10 subscriptions; delete one/);
    const holdings = async () => (await call('GET', '/api/v2/me', { key: starter })).body.subscriptions;
    assert.deepEqual(await holdings(), { allowance: 10, held: 10 });
    const held = answers.find((answer) => answer.status === 201)?.body.subscriptionId;
    assert.equal((await call('DELETE', `/api/v2/subscriptions/${held}`, { key: starter })).status, 204);
    assert.deepEqual(await holdings(), { allowance: 10, held: 9 }, 'a deletion frees its place at once');
    assert.equal((await subscribe(starter)).status, 201);
    assert.equal((await subscribe(starter)).status, 409);
  });

  it('creates with the defaults shown, its first check due at once; reads it back at once', async () => {
    const created = await subscribe(key, { format: 'audio' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { body } = created;
    assert.equal(body.status, 'active');
    assert.deepEqual(body.source, { kind: 'channel', url: channelUrl() });
    assert.equal(body.checkEveryMinutes, 60);
    assert.equal(body.start, 'new');
    assert.equal(body.nextCheckAt, body.createdAt);
    assert.deepEqual(body.jobs, []);
    assert.equal(body.accountId, undefined);
    const read = await call('GET', `/api/v2/subscriptions/${body.subscriptionId}`, { key });
    assert.equal(read.status, 200);
    assert.equal(read.body.subscriptionId, body.subscriptionId);
  });

  it('answers 404 for another account’s subscription, an unknown id and a malformed one, on every route', async () => {
    const { body } = await subscribe(key);
    for (const id of [body.subscriptionId, 'no-such-subscription', '%E2%80%AE..']) {
      const asOther = id === body.subscriptionId ? otherKey : key;
      for (const [method, suffix, json] of [
        ['GET', '', undefined],
        ['PATCH', '', { paused: true }],
        ['DELETE', '', undefined],
        ['POST', '/check', undefined],
      ] as const) {
        const response = await call(method, `/api/v2/subscriptions/${id}${suffix}`, { key: asOther, json });
        assert.equal(response.status, 404, `${method} ${id}${suffix}: ${JSON.stringify(response.body)}`);
        assert.equal(response.body.error, 'Subscription not found');
      }
    }
    assert.equal((await call('GET', `/api/v2/subscriptions/${body.subscriptionId}`, { key })).status, 200);
  });

  it('pauses, resumes, changes interval and format; a paused one refuses a check with 409; a deleted one is gone', async () => {
    const { body } = await subscribe(key);
    const path = `/api/v2/subscriptions/${body.subscriptionId}`;
    const paused = await call('PATCH', path, { key, json: { paused: true, checkEveryMinutes: 30, format: '720' } });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.pause.pausedBy, 'user');
    assert.equal(paused.body.nextCheckAt, null);
    assert.equal(paused.body.checkEveryMinutes, 30);
    assert.equal(paused.body.format, '720');
    const check = await call('POST', `${path}/check`, { key });
    assert.equal(check.status, 409);
    assert.match(check.body.error, /is paused: resume it/);
    const resumed = await call('PATCH', path, { key, json: { paused: false } });
    assert.equal(resumed.body.status, 'active');
    assert.ok(Date.parse(resumed.body.nextCheckAt) > Date.now(), 'resumed on its own phase, not at once');
    const checked = await call('POST', `${path}/check`, { key });
    assert.equal(checked.status, 202);
    assert.ok(Date.parse(checked.body.nextCheckAt) <= Date.now());
    for (const json of [{}, { paused: 'yes' }, { checkEveryMinutes: 10 }, { other: 1 }]) {
      const response = await call('PATCH', path, { key, json });
      assert.equal(response.status, 400, `${JSON.stringify(json)}: ${JSON.stringify(response.body)}`);
    }
    assert.equal((await call('DELETE', path, { key })).status, 204);
    assert.equal((await call('GET', path, { key })).status, 404);
    assert.equal((await call('DELETE', path, { key })).status, 404);
  });

  it('lists only the account’s own live subscriptions, oldest first, in pages; a forged cursor is a 400', async () => {
    const lister = (await service.createAccount({ planId: 'growth', addOns: ['channel_list'] })).apiKey;
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await subscribe(lister)).body.subscriptionId);
    await call('DELETE', `/api/v2/subscriptions/${ids[1]}`, { key: lister });
    await service.settle();
    const first = await call('GET', '/api/v2/subscriptions?limit=1', { key: lister });
    assert.equal(first.status, 200);
    assert.equal(first.body.total, 2);
    assert.deepEqual(
      first.body.subscriptions.map((item: { subscriptionId: string }) => item.subscriptionId),
      [ids[0]],
    );
    const second = await call('GET', `/api/v2/subscriptions?limit=1&cursor=${first.body.nextCursor}`, { key: lister });
    assert.deepEqual(
      second.body.subscriptions.map((item: { subscriptionId: string }) => item.subscriptionId),
      [ids[2]],
    );
    assert.equal(second.body.nextCursor, null);
    const forged = await call('GET', '/api/v2/subscriptions?cursor=bm9wZQ', { key: lister });
    assert.equal(forged.status, 400);
    assert.match(forged.body.error, /cursor/);
  });
});
