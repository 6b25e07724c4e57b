import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { EventStore, SubscribeOptions, Subscription } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { PROJECTIONS } from '../../infrastructure/features/features.js';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import {
  FIXTURE_BIG_CHANNEL,
  FIXTURE_CLIENT_DOWNLOAD_PATHS,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** The accounts projection's events reach it this much later while `slowed` is set, outside any transaction. */
const ACCOUNTS_DELAY_MS = 1_500;

/**
 * The event store as the accounts projection sees it: every page of account events held back, so its read model
 * (`GET /me`) lags behind the job read models, as it can on a busy machine.
 */
function withSlowAccounts(store: EventStore, slowed: () => boolean): EventStore {
  const delayed = (subscription: Subscription): Subscription => ({
    async *[Symbol.asyncIterator]() {
      for await (const page of subscription) {
        if (page.events.length > 0 && slowed()) await sleep(ACCOUNTS_DELAY_MS);
        yield page;
      }
    },
    close: () => subscription.close(),
  });
  return new Proxy(store, {
    get(target, property) {
      if (property === 'subscribeToAll') {
        return (options: SubscribeOptions) => {
          const subscription = target.subscribeToAll(options);
          return options.filter?.streamPrefixes?.includes('account-') ? delayed(subscription) : subscription;
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('read-your-writes: what the caller saw finish, GET /me already counts', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let projector: ProjectionRunner;
  let call: ReturnType<typeof apiClient>;
  let slowed = false;
  let receiver: WebhookReceiver | undefined;

  before(async () => {
    platform = await startFixturePlatform();
    // No projector role: the test runs the read models itself, with the accounts projection slowed down.
    service = await startTestService({
      label: 'read_your_writes',
      roles: ['api', 'worker'],
      env: { ...serviceEnvFor(platform), READ_YOUR_WRITES_WAIT_MS: '30000', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    });
    const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    projector = new ProjectionRunner(PROJECTIONS, {
      db,
      store: withSlowAccounts(store, () => slowed),
      connectionString: service.database?.url ?? '',
      logger: silent,
    });
    await projector.start();
    call = apiClient(service.url);
  });
  afterEach(() => {
    slowed = false;
  });
  after(async () => {
    await receiver?.stop();
    await projector?.stop();
    await service?.stop();
    await platform?.stop();
  });

  async function account(): Promise<string> {
    const admin = service.service.container.resolve(
      (await import('../../application/accounts/account-administration.js')).AccountAdministration,
    );
    const created = await admin.openAccount({
      name: 'Reader',
      email: 'reader@example.com',
      planId: 'growth',
      addOns: ['client_download', 'channel_list'],
    });
    await projector.waitUntilCaughtUp(null, { timeoutMs: 30_000 });
    slowed = true;
    return created.apiKey;
  }

  async function balances(key: string): Promise<Record<string, { used: number }>> {
    const me = await call('GET', '/api/v2/me', { key });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    return me.body.balances;
  }

  /** Polls until the job reads as finished; returns that body. */
  async function pollUntilFinished(
    path: string,
    key: string,
    finished: (status: string) => boolean,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const response = await call('GET', path, { key });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (finished(response.body.status)) return response.body;
      assert.ok(Date.now() < deadline, `${path} still ${response.body.status}`);
      await sleep(50);
    }
  }

  it('POST /list-channel answers once /me shows its charge', async () => {
    const key = await account();
    const listed = await call('POST', '/api/v2/list-channel', {
      key,
      json: { channelUrl: platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}/videos`), maxVideos: 30 },
    });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal((await balances(key)).channel_list.used, 3);
  });

  it('an info job reads as success only once /me shows its unit', async () => {
    const key = await account();
    const submitted = await call('POST', '/api/v2/info', {
      key,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const done = await pollUntilFinished(`/api/v2/info/${submitted.body.jobId}`, key, (status) => status !== 'pending');
    assert.equal(done.status, 'success');
    assert.equal((await balances(key)).info.used, 1);
  });

  it('a client-download job reads as success only once /me shows its unit', async () => {
    const key = await account();
    const url = platform.pageUrl(FIXTURE_CLIENT_DOWNLOAD_PATHS['photo sharing /reel'](FIXTURE_VIDEOS.clip.id));
    const submitted = await call('POST', '/api/v2/client-download', { key, json: { url } });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const done = await pollUntilFinished(
      `/api/v2/client-download/${submitted.body.jobId}`,
      key,
      (status) => status !== 'pending',
    );
    assert.equal(done.status, 'success');
    assert.equal((await balances(key)).client_download.used, 1);
  });

  it('a download reads as COMPLETED only once /me shows its charge', async () => {
    const key = await account();
    const submitted = await call('POST', '/api/v2/download', {
      key,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const done = await pollUntilFinished(
      `/api/v2/download/${submitted.body.jobId}`,
      key,
      (status) => status === 'COMPLETED' || status === 'FAILED',
    );
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal((await balances(key)).download_count.used, 1);
  });

  it("a download's event stream sends COMPLETED only once /me shows its charge", async () => {
    const key = await account();
    const submitted = await call('POST', '/api/v2/download', {
      key,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const stream = await EventStreamClient.open(`${service.url}/api/v2/download/${submitted.body.jobId}/events`, {
      Authorization: `Bearer ${key}`,
    });
    try {
      const done = await stream.waitFor(
        'the terminal body',
        () => stream.bodies().find((body) => body.status === 'COMPLETED' || body.status === 'FAILED'),
        120_000,
      );
      assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
      assert.equal((await balances(key)).download_count.used, 1);
    } finally {
      stream.close();
    }
  });

  it('the jobs list shows a download COMPLETED only once /me shows its charge', async () => {
    const key = await account();
    const submitted = await call('POST', '/api/v2/download', {
      key,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const deadline = Date.now() + 120_000;
    for (;;) {
      const listed = await call('GET', '/api/v2/downloads', { key });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const job = listed.body.jobs.find((entry: { jobId: string }) => entry.jobId === submitted.body.jobId);
      if (job?.status === 'COMPLETED' || job?.status === 'FAILED') {
        assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
        assert.equal((await balances(key)).download_count.used, 1);
        return;
      }
      assert.ok(Date.now() < deadline, `the listed job is still ${job?.status}`);
      await sleep(50);
    }
  });

  it('a download.completed webhook is sent only once /me shows the charge', async () => {
    const key = await account();
    receiver = await startWebhookReceiver();
    const submitted = await call('POST', '/api/v2/download', {
      key,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), webhookUrl: receiver.url() },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const [received] = await receiver.waitFor(1, 120_000);
    assert.equal(JSON.parse(received.rawBody.toString('utf8')).status, 'COMPLETED');
    assert.equal((await balances(key)).download_count.used, 1);
  });
});
