import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type CanaryServer, startCanaryServer } from '../support/canary-server.js';
import { type TestService, startTestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `#__youtubedl_smuggle=`: yt-dlp's own channel for data between its extractors, which its generic extractor turns into request headers. */
function smuggleHost(url: string, host: string): string {
  return `${url}#__youtubedl_smuggle=${encodeURIComponent(JSON.stringify({ http_headers: { Host: host } }))}`;
}

/**
 * A platform host (127.0.0.2: no fixture plugin claims it, so yt-dlp's
 * generic extractor reads it) whose pages redirect to their media on the
 * host the request names, as web frameworks that build absolute URLs from
 * the Host header do.
 */
async function startHostRoutedPlatform(): Promise<{ host: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/media/')) {
      response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': '4' }).end('mp4!');
      return;
    }
    response.writeHead(302, { Location: `http://${request.headers.host}/media${request.url}video.mp4` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { host: `127.0.0.2:${(server.address() as AddressInfo).port}`, server };
}

describe('end to end: a URL fragment never reaches the extractor', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let hostRouted: { host: string; server: Server };
  let canary: CanaryServer;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    hostRouted = await startHostRoutedPlatform();
    canary = await startCanaryServer();
    const env = serviceEnvFor(platform);
    service = await startTestService({
      label: 'url-fragments',
      env: {
        ...env,
        PHOTO_SHARING_HOSTS: `${env.PHOTO_SHARING_HOSTS},${hostRouted.host}`,
        VIDEO_HOSTS: `${env.VIDEO_HOSTS},${hostRouted.host}`,
        EGRESS_ALLOW: `${env.EGRESS_ALLOW},${hostRouted.host}`,
        DOWNLOAD_MAX_ATTEMPTS: '1',
      },
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
    await canary?.close();
    await new Promise((resolve) => hostRouted?.server.close(resolve));
  });

  async function pollUntilFinished(key: string, jobId: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await call('GET', `/api/v2/client-download/${jobId}`, { key });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (response.body.status !== 'pending') return response.body;
      assert.ok(Date.now() < deadline, `job ${jobId} still pending`);
      await sleep(100);
    }
  }

  it('POST /client-download: smuggled request headers stay behind, the links name the platform, the canary sees nothing', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['client_download'] });
    const url = smuggleHost(`http://${hostRouted.host}/p/v-1080/`, canary.host);
    const submitted = await call('POST', '/api/v2/client-download', { key: apiKey, json: { url } });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const done = await pollUntilFinished(apiKey, submitted.body.jobId);
    assert.equal(done.status, 'success', JSON.stringify(done));
    assert.equal(done.result.url, url, 'the job reports the URL as submitted');
    assert.deepEqual(
      done.result.downloadLinks.map((link: { url: string }) => link.url),
      [`http://${hostRouted.host}/media/p/v-1080/video.mp4`],
    );
    assert.deepEqual(canary.hits, []);
  });

  it('POST /list-channel: smuggled request headers stay behind, the canary sees nothing', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
    // The page is no channel, so the listing is refused either way; what matters is where the extractor went.
    await call('POST', '/api/v2/list-channel', {
      key: apiKey,
      json: { channelUrl: smuggleHost(`http://${hostRouted.host}/@someone/`, canary.host), maxVideos: 1 },
    });
    assert.deepEqual(canary.hits, []);
  });
});
