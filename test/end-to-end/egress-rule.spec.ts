import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EgressEvent } from '../../infrastructure/egress/egress-proxy.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type CanaryServer, startCanaryServer } from '../support/canary-server.js';
import { type TestService, startTestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A host on the allowed lists that answers every page with a redirect, as share-link hosts and open redirects do. */
async function startRedirector(to: () => string): Promise<{ host: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(302, { Location: to() }).end());
  // 127.0.0.2: no fixture plugin claims it, so yt-dlp's generic extractor follows the redirect.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { host: `127.0.0.2:${(server.address() as AddressInfo).port}`, server };
}

describe('end to end: the egress rule for yt-dlp and ffmpeg', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let canary: CanaryServer;
  let redirector: { host: string; server: Server };
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  const allowed: EgressEvent[] = [];
  const refused: EgressEvent[] = [];

  before(async () => {
    platform = await startFixturePlatform();
    canary = await startCanaryServer();
    redirector = await startRedirector(() => `http://${canary.host}/internal/secret.mp4`);
    const env = serviceEnvFor(platform);
    service = await startTestService({
      label: 'egress',
      // The platform and the redirector are allowed; the canary, another loopback port, is on no list.
      env: {
        ...env,
        PHOTO_SHARING_HOSTS: `${env.PHOTO_SHARING_HOSTS},${redirector.host}`,
        EGRESS_ALLOW: `${env.EGRESS_ALLOW},${redirector.host}`,
        DOWNLOAD_MAX_ATTEMPTS: '3',
        DOWNLOAD_RETRY_BASE_MS: '200',
      },
    });
    const ytDlp = service.service.container.resolve(TOKENS.ytDlp);
    assert.ok(ytDlp !== null, 'the service runs yt-dlp');
    const egress = ytDlp.egress;
    egress.on('allowed', (event: EgressEvent) => allowed.push(event));
    egress.on('refused', (event: EgressEvent) => refused.push(event));
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
    await canary?.close();
    await new Promise((resolve) => redirector?.server.close(resolve));
  });

  async function poll(path: string, key: string, done: (body: any) => boolean) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const response = await call('GET', path, { key });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (done(response.body)) return response.body;
      assert.ok(Date.now() < deadline, `${path} still ${JSON.stringify(response.body)}`);
      await sleep(150);
    }
  }

  it('downloads from the fixture platform through the proxy, its host:port allowed', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const submitted = await call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-mp3' },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const job = await poll(
      `/api/v2/download/${submitted.body.jobId}`,
      apiKey,
      (body) => body.status === 'COMPLETED' || body.status === 'FAILED',
    );
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    assert.ok(
      allowed.some(
        (event) => event.target === platform.host && event.url?.includes(`/media/${FIXTURE_VIDEOS.clip.id}/`),
      ),
      JSON.stringify(allowed),
    );
  });

  it('fails a client-download whose allowed host redirects to a non-allowed address; the canary sees nothing', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['client_download'] });
    const submitted = await call('POST', '/api/v2/client-download', {
      key: apiKey,
      json: { url: `http://${redirector.host}/p/anything/` },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const job = await poll(
      `/api/v2/client-download/${submitted.body.jobId}`,
      apiKey,
      (body) => body.status !== 'pending',
    );
    assert.equal(job.status, 'failed', JSON.stringify(job));
    assert.equal(job.error, 'The link leads to an address this service may not reach');
    const canaryRefusals = refused.filter((event) => event.target === canary.host);
    assert.ok(
      canaryRefusals.every((event) => /loopback address, and is not on EGRESS_ALLOW/.test(event.reason ?? '')),
      JSON.stringify(refused),
    );
    // A refusal is the rule's answer, not a passing fault: the job fails on its first attempt, with attempts left.
    assert.equal(canaryRefusals.length, 1, JSON.stringify(refused));
    assert.deepEqual(canary.hits, []);
    const metrics = await call('GET', '/metrics');
    assert.match(String(metrics.body), /^egress_refusals_total [1-9]/m);
  });
});
