import assert from 'node:assert/strict';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { FIXTURE_VIDEOS } from '../fixtures/platform/fixture-catalog.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/**
 * YT_DLP_EXTRACTORS reaches yt-dlp however a lookup runs. Limited to the plugin's video extractor, the fixture
 * clip (a plain page only the generic extractor reads) finds no extractor, while the plugin's own refusals still
 * come through.
 */
for (const [path, warmHelpers] of [
  ['warm helpers', '2'],
  ['the command line', '0'],
] as const)
  describe(`end to end: the extractors yt-dlp may use, looked up on ${path}`, function () {
    this.timeout(120_000);
    let platform: FixturePlatform;
    let service: TestService;
    let call: ReturnType<typeof apiClient>;

    before(async () => {
      platform = await startFixturePlatform();
      service = await startTestService({
        label: 'extractors_limited',
        env: {
          ...serviceEnvFor(platform),
          YT_DLP_EXTRACTORS: 'fixtureplatform',
          WARM_EXTRACTOR_PROCESSES: warmHelpers,
        },
      });
      call = apiClient(service.url);
    });
    after(async () => {
      await service?.stop();
      await platform?.stop();
    });

    it('leaves out the extractors not named: a page only the generic extractor reads is refused as no video, uncharged', async () => {
      const { apiKey } = await service.createAccount();
      const submit = (id: string) =>
        call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(id), format: 'audio' } });
      const generic = await submit(FIXTURE_VIDEOS.clip.id);
      // A refusal for good, as yt-dlp's "Unsupported URL" is: no extractor allowed takes the URL, and retrying finds none.
      assert.equal(generic.status, 400, JSON.stringify(generic.body));
      assert.equal(generic.body.details, 'VIDEO_NOT_FOUND');
      const named = await submit('private-0000001');
      assert.equal(named.status, 400, JSON.stringify(named.body));
      assert.equal(named.body.details, 'PRIVATE_VIDEO');
      const me = await call('GET', '/api/v2/me', { key: apiKey });
      assert.equal(me.body.balances.download_count.used, 0, 'neither charged');
    });
  });
