import assert from 'node:assert/strict';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('POST /download-batch, GET, DELETE and retry: bad input, keys, other accounts’ batches and paging', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let key: string;
  let otherKey: string;

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({ label: 'batch-http', env: { ...serviceEnvFor(platform) } });
    call = apiClient(service.url);
    key = (await service.createAccount({ planId: 'growth' })).apiKey;
    otherKey = (await service.createAccount({ planId: 'growth' })).apiKey;
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  const urls = (count: number) => Array.from({ length: count }, (_, index) => platform.watchUrl(`missing-${index}`));

  it('answers 400 naming the field for a bad request, and 403 for a listing without the channel_list add-on', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ format: 'audio' }, /exactly one of playlistUrl, channelUrl or urls/],
      [{ urls: urls(1), playlistUrl: platform.playlistUrl() }, /exactly one of playlistUrl, channelUrl or urls/],
      [{ urls: [] }, /urls/],
      [{ urls: urls(501) }, /urls/],
      [{ urls: [urls(1)[0], 'https://example.com/watch?v=x'] }, /urls\[1\]/],
      [{ playlistUrl: `${platform.watchUrl('x')}` }, /playlistUrl/],
      [{ channelUrl: 'https://example.com/@x' }, /channelUrl/],
      [{ urls: urls(1), maxVideos: 501 }, /maxVideos/],
      [{ urls: urls(1), format: 'gif' }, /format/],
      [{ urls: urls(1), batchWebhookUrl: 'http://127.0.0.1/hook' }, /batchWebhookUrl/],
      [{ urls: urls(1), extra: 1 }, /extra/],
    ];
    for (const [json, message] of cases) {
      const response = await call('POST', '/api/v2/download-batch', { key, json });
      assert.equal(response.status, 400, `${JSON.stringify(json).slice(0, 80)}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error, message);
    }
    const listing = await call('POST', '/api/v2/download-batch', {
      key,
      json: { playlistUrl: platform.playlistUrl() },
    });
    assert.equal(listing.status, 403);
    assert.equal(listing.body.error, 'The channel_list add-on is not enabled for this account');
  });

  it('needs an API key under every prefix, and is served under each', async () => {
    for (const prefix of ['/api/v2', '/api/v1', '/v2']) {
      assert.equal((await call('POST', `${prefix}/download-batch`, { json: { urls: urls(1) } })).status, 401);
      const accepted = await call('POST', `${prefix}/download-batch`, { key, json: { urls: urls(1) } });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      assert.equal((await call('GET', `${prefix}/download-batch/${accepted.body.batchId}`)).status, 401);
    }
  });

  it('answers 404 for another account’s batch, an unknown id and a malformed one, as for jobs', async () => {
    const { body } = await call('POST', '/api/v2/download-batch', { key, json: { urls: urls(2) } });
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/retry'],
    ] as const) {
      const foreign = await call(method, `/api/v2/download-batch/${body.batchId}${suffix}`, { key: otherKey });
      assert.equal(foreign.status, 404, `${method} ${suffix}`);
      assert.equal((await call(method, `/api/v2/download-batch/0123-unknown${suffix}`, { key })).status, 404);
      assert.equal((await call(method, `/api/v2/download-batch/x%20y${suffix}`, { key })).status, 404);
    }
    assert.equal((await call('GET', `/api/v2/download-batch/${body.batchId}`, { key })).status, 200);
  });

  it('pages the jobs in listing order with nextCursor, like GET /downloads, and refuses a cursor it did not give', async () => {
    const given = urls(25);
    const { body } = await call('POST', '/api/v2/download-batch', { key, json: { urls: given } });
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const query: string = cursor === null ? '?limit=10' : `?limit=10&cursor=${cursor}`;
      const page = await call('GET', `/api/v2/download-batch/${body.batchId}${query}`, { key });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.totalVideos, 25);
      sizes.push(page.body.jobs.length);
      seen.push(...page.body.jobs.map((job: { videoUrl: string }) => job.videoUrl));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(sizes, [10, 10, 5]);
    assert.deepEqual(seen, given);
    const bad = await call('GET', `/api/v2/download-batch/${body.batchId}?cursor=bm9wZQ`, { key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /cursor/);
  });
});
