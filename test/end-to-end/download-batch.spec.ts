import assert from 'node:assert/strict';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { FIXTURE_PLAYLIST } from '../fixtures/platform/fixture-list-catalog.js';
import { verifyWebhookSignature } from '../../infrastructure/webhooks/verify-webhook-signature.js';
import { apiClient } from '../support/api-client.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';
import { type TestService, startTestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const mode of ['server', 'embedded'] as const)
  describe(`end to end, ${mode} mode: a playlist as one batch`, function () {
    this.timeout(300_000);
    let platform: FixturePlatform;
    let service: TestService;
    let call: ReturnType<typeof apiClient>;
    let receiver: WebhookReceiver;

    before(async () => {
      platform = await startFixturePlatform();
      receiver = await startWebhookReceiver();
      service = await startTestService({
        label: `batches-${mode}`,
        embedded: mode === 'embedded',
        env: { ...serviceEnvFor(platform), WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
      });
      call = apiClient(service.url);
    });
    after(async () => {
      await service?.stop();
      await platform?.stop();
      await receiver?.stop();
    });

    async function untilFinished(key: string, batchId: string) {
      const deadline = Date.now() + 240_000;
      for (;;) {
        const response = await call('GET', `/api/v2/download-batch/${batchId}?limit=100`, { key });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        if (!['pending', 'running'].includes(response.body.status)) return response.body;
        assert.ok(
          Date.now() < deadline,
          `batch still ${response.body.status}: ${JSON.stringify(response.body.counts)}`,
        );
        await sleep(250);
      }
    }

    it('downloads the 12-video playlist as 12 ordinary jobs, each completed, charged and announced once, the listing charged 2 units, then one signed batch.finished', async () => {
      const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
      const submitted = await call('POST', '/api/v2/download-batch', {
        key: apiKey,
        json: {
          playlistUrl: platform.playlistUrl(),
          maxVideos: 50,
          format: 'audio',
          webhookUrl: receiver.url('/video'),
          batchWebhookUrl: receiver.url('/batch'),
        },
      });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      const batch = await untilFinished(apiKey, submitted.body.batchId);
      assert.equal(batch.status, 'completed', JSON.stringify(batch));
      assert.equal(batch.totalVideos, 12);
      assert.equal(batch.counts.completed, 12);
      assert.equal(batch.listingUnits, 2);
      assert.deepEqual(
        batch.jobs.map((job: { title: string }) => job.title),
        FIXTURE_PLAYLIST.videos.map((video) => video.title),
      );
      const jobIds = batch.jobs.map((job: { jobId: string }) => job.jobId);
      assert.equal(new Set(jobIds).size, 12);
      for (const jobId of jobIds) {
        const job = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
        assert.equal(job.body.status, 'COMPLETED');
      }
      let balances: any;
      for (let i = 0; i < 100; i += 1) {
        await service.settle();
        balances = (await call('GET', '/api/v2/me', { key: apiKey })).body.balances;
        if (balances.download_count.used === 12) break;
        await sleep(100);
      }
      assert.equal(balances.download_count.used, 12, 'each job charged once');
      assert.equal(balances.channel_list.used, 2, 'the listing charged 1 unit per 10 items');

      const all = await receiver.waitFor(13, 60_000);
      const events = all.map((received) => received.headers['x-service-event']);
      assert.equal(events.filter((event) => event === 'download.completed').length, 12);
      const finished = all.filter((received) => received.headers['x-service-event'] === 'batch.finished');
      assert.equal(finished.length, 1);
      const [only] = finished;
      assert.ok(only !== undefined);
      const signature = only.headers['x-service-signature'] as string;
      assert.equal(verifyWebhookSignature(only.rawBody, signature, apiKey).ok, true);
      const body = JSON.parse(only.rawBody.toString());
      assert.equal(body.batchId, submitted.body.batchId);
      assert.equal(body.status, 'completed');
      assert.equal(body.counts.completed, 12);
    });
  });
