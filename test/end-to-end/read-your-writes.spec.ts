import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { EventStore, SubscribeOptions, Subscription } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { PROJECTIONS } from '../../infrastructure/features/features.js';
import { ProjectionRunner } from '../../infrastructure/processing/projection-runner.js';
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

/** How far behind a read model is held: its pages reach it this much later, or not at all while stopped. */
type Lag = number | 'stopped';

/** While `slowed` is set, the accounts projection's pages reach it this much later, outside any transaction. */
const ACCOUNTS_DELAY_MS = 1_500;
/** Longer than the lags above, so those are waited out; a stopped projector runs into the bound. */
const WAIT_MS = 4_000;

/**
 * The event store as the projections see it: pages of account events (and, when asked, of download job events) held
 * back, so the read models lag behind the event store, as they can on a busy machine, or stop as a projector can.
 */
function withLaggingProjections(store: EventStore, lag: { accounts: () => Lag; jobs: () => Lag }): EventStore {
  const delayed = (subscription: Subscription, lagOf: () => Lag): Subscription => ({
    async *[Symbol.asyncIterator]() {
      for await (const page of subscription) {
        if (page.events.length > 0) {
          const current = lagOf();
          if (typeof current === 'number' && current > 0) await sleep(current);
          while (lagOf() === 'stopped') await sleep(50);
        }
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
          const prefixes = options.filter?.streamPrefixes ?? [];
          if (prefixes.includes('account-')) return delayed(subscription, lag.accounts);
          if (prefixes.includes('download-')) return delayed(subscription, lag.jobs);
          return subscription;
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
  let accountsLag: Lag = 0;
  let jobsLag: Lag = 0;
  let receiver: WebhookReceiver | undefined;

  before(async () => {
    platform = await startFixturePlatform();
    // No projector role: the test runs the read models itself, with the accounts projection slowed down.
    service = await startTestService({
      label: 'read_your_writes',
      roles: ['api', 'worker'],
      env: {
        ...serviceEnvFor(platform),
        READ_YOUR_WRITES_WAIT_MS: String(WAIT_MS),
        DOWNLOAD_MAX_ATTEMPTS: '1',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      },
    });
    const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    projector = new ProjectionRunner(PROJECTIONS, {
      db,
      store: withLaggingProjections(store, { accounts: () => accountsLag, jobs: () => jobsLag }),
      connectionString: service.database?.url ?? '',
      logger: silent,
    });
    await projector.start();
    call = apiClient(service.url);
  });
  afterEach(() => {
    accountsLag = 0;
    jobsLag = 0;
  });
  after(async () => {
    await receiver?.stop();
    await projector?.stop();
    await service?.stop();
    await platform?.stop();
  });

  async function account(): Promise<string> {
    return (await openAccount()).apiKey;
  }

  async function openAccount(): Promise<{ accountId: string; apiKey: string }> {
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
    accountsLag = ACCOUNTS_DELAY_MS;
    return created;
  }

  /** The reservations the accounts read model (what GET /me serves) still holds open. */
  async function pendingInReadModel(accountId: string): Promise<string[]> {
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const row = await db('accounts').where('account_id', accountId).first();
    return row.state.pendingJobs;
  }

  async function submit(key: string, videoId: string): Promise<string> {
    const submitted = await call('POST', '/api/v2/download', { key, json: { url: platform.watchUrl(videoId) } });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    return submitted.body.jobId;
  }

  /** A request's answer and how long it took. */
  async function timed(method: string, path: string, key: string) {
    const started = Date.now();
    const response = await call(method, path, { key });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return { body: response.body, ms: Date.now() - started };
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

  it('a cancel shows at once: the next poll and page read FAILED, and /me no longer holds its reservation', async () => {
    const { accountId, apiKey: key } = await openAccount();
    jobsLag = ACCOUNTS_DELAY_MS;
    const jobId = await submit(key, FIXTURE_VIDEOS.slow.id);
    const cancelled = await call('DELETE', `/api/v2/download/${jobId}`, { key });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'FAILED');
    const polled = await call('GET', `/api/v2/download/${jobId}`, { key });
    assert.equal(polled.body.status, 'FAILED', 'the poll right after the cancel');
    const listed = await call('GET', '/api/v2/downloads', { key });
    assert.equal(listed.body.jobs.find((job: { jobId: string }) => job.jobId === jobId)?.status, 'FAILED');
    assert.ok(!(await pendingInReadModel(accountId)).includes(jobId), 'GET /me no longer counts its reservation');
  });

  it('a failed download reads as FAILED only once /me no longer holds its reservation', async () => {
    const { accountId, apiKey: key } = await openAccount();
    const jobId = await submit(key, FIXTURE_VIDEOS.missing.id);
    const done = await pollUntilFinished(`/api/v2/download/${jobId}`, key, (status) => status === 'FAILED');
    assert.equal(done.status, 'FAILED');
    assert.ok(!(await pendingInReadModel(accountId)).includes(jobId), 'released in the read model');
  });

  it('with the accounts projection stopped, finished downloads read as under way within about one wait, then COMPLETED', async () => {
    const key = await account();
    accountsLag = 'stopped';
    const jobIds = [
      await submit(key, FIXTURE_VIDEOS.clip.id),
      await submit(key, FIXTURE_VIDEOS.clip.id),
      await submit(key, FIXTURE_VIDEOS.clip.id),
    ];
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const deadline = Date.now() + 120_000;
    while ((await db('download_jobs').whereIn('job_id', jobIds).where('status', 'COMPLETED')).length < jobIds.length) {
      assert.ok(Date.now() < deadline, 'the downloads complete');
      await sleep(100);
    }
    const bound = WAIT_MS + 3_000;
    for (const jobId of jobIds) {
      const polled = await timed('GET', `/api/v2/download/${jobId}`, key);
      assert.equal(polled.body.status, 'IN_PROGRESS', 'its charge is not in /me yet');
      assert.ok(polled.ms < bound, `a poll took ${polled.ms} ms`);
    }
    const page = await timed('GET', '/api/v2/downloads', key);
    assert.deepEqual(
      page.body.jobs.map((job: { status: string }) => job.status),
      ['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS'],
    );
    assert.ok(page.ms < bound, `the page took ${page.ms} ms`);
    assert.equal((await balances(key)).download_count.used, 0);

    accountsLag = 0;
    for (const jobId of jobIds) {
      const done = await pollUntilFinished(`/api/v2/download/${jobId}`, key, (status) => status === 'COMPLETED');
      assert.equal(done.status, 'COMPLETED');
    }
    assert.equal((await balances(key)).download_count.used, 3);
  });
});
