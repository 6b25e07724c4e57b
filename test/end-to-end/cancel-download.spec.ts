import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type { EventStore } from '../../application/ports/event-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { connectToNats } from '../../infrastructure/nats/connection.js';
import { workSubject } from '../../infrastructure/work-queue/work-subject.js';
import { verifyWebhookSignature } from '../../infrastructure/webhooks/verify-webhook-signature.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { processesWorkingIn } from '../support/processes.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('end to end: DELETE /download/{jobId} cancels a job', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let receiver: WebhookReceiver | undefined;

  before(async () => {
    platform = await startFixturePlatform();
    // One download at a time, so a second job stays queued behind a slow one; webhooks may go to a receiver on loopback.
    service = await startTestService({
      label: 'cancel',
      env: { ...serviceEnvFor(platform), WORKER_CONCURRENCY: '1', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await receiver?.stop();
    await service?.stop();
    await platform?.stop();
  });

  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
      await sleep(100);
    }
  }

  const pendingJobs = async (accountId: string): Promise<unknown[]> => {
    await service.settle();
    const account = await service.service.container
      .resolve<Knex>(TOKENS.database)('accounts')
      .where('account_id', accountId)
      .first();
    return account.state.pendingJobs;
  };
  /** The delivery's events in the job's stream. */
  const deliveryEvents = async (jobId: string): Promise<string[]> =>
    (await service.service.container.resolve<EventStore>(TOKENS.eventStore).readStream(`download-${jobId}`))
      .map((event) => event.type)
      .filter((type) => type.startsWith('Webhook'));

  /**
   * Whether the webhook work has run out: the delivery's stream records its end, every event is queued, and the
   * webhook consumer holds no message, neither waiting nor being handled nor put off for a later attempt. A duplicate
   * sent by any delivery of the work would have reached the receiver by then.
   */
  const webhookWorkDrained = async (jobId: string): Promise<boolean> => {
    const ended = (await deliveryEvents(jobId)).some((type) =>
      ['WebhookAttemptSucceeded', 'WebhookDeliveryStopped', 'WebhookDeliveryGaveUp'].includes(type),
    );
    if (!ended) return false;
    await service.service.relay?.waitUntilCaughtUp(null, { timeoutMs: 20_000 });
    const nats = await connectToNats({ url: service.config.queue.natsUrl, name: 'cancel-download.spec' });
    try {
      // Named as the work consumer names its durable: after its subject.
      const durable = workSubject(service.config, 'webhook').replace(/[.*>\s]/g, '_');
      const consumer = await (await nats.jetstreamManager()).consumers.info(
        service.config.queue.natsStreamName,
        durable,
      );
      return consumer.num_pending === 0 && consumer.num_ack_pending === 0;
    } finally {
      await nats.close();
    }
  };
  const balances = async (key: string) => {
    await service.settle();
    return (await call('GET', '/api/v2/me', { key })).body.balances;
  };

  it('cancels a running and a queued job: processes stopped, FAILED without errorCode, reservations released uncharged', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
    const slowUrl = platform.watchUrl(FIXTURE_VIDEOS.slow.id);
    const running = (await call('POST', '/api/v2/download', { key: apiKey, json: { url: slowUrl, format: 'audio' } }))
      .body.jobId;
    // A run forked from the fork server has the server's command line, not its URL; its working directory, the job's, shows it (and no other service's run).
    await waitFor(
      'yt-dlp downloads the slow video',
      async () => (await processesWorkingIn(service.config.storage.workDir)).length > 0,
    );
    const queued = (
      await call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) } })
    ).body.jobId;
    assert.equal((await call('GET', `/api/v2/download/${queued}`, { key: apiKey })).body.status, 'IN_QUEUE');
    assert.equal((await pendingJobs(accountId)).length, 2, 'both jobs hold a reservation');

    const cancelledQueued = await call('DELETE', `/api/v2/download/${queued}`, { key: apiKey });
    assert.equal(cancelledQueued.status, 200);
    assert.equal(cancelledQueued.body.status, 'FAILED');
    assert.equal(cancelledQueued.body.startedAt, null);
    assert.ok(!('errorCode' in cancelledQueued.body));

    assert.equal((await call('GET', `/api/v2/download/${running}`, { key: apiKey })).body.status, 'IN_PROGRESS');
    const cancelledRunning = await call('DELETE', `/api/v2/download/${running}`, { key: apiKey });
    assert.equal(cancelledRunning.status, 200);
    assert.equal(cancelledRunning.body.status, 'FAILED');
    assert.notEqual(cancelledRunning.body.startedAt, null);
    await waitFor(
      'no yt-dlp or ffmpeg is left',
      async () => (await processesWorkingIn(service.config.storage.workDir)).length === 0,
      15_000,
    );

    await waitFor('both reservations are released', async () => (await pendingJobs(accountId)).length === 0);
    const after = await balances(apiKey);
    assert.equal(after.download_count.used, 0, 'nothing charged');
    assert.equal(after.bandwidth_mb.used, 0, 'nothing charged');
    await service.settle();
    for (const jobId of [running, queued]) {
      const polled = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(polled.body.status, 'FAILED');
      assert.ok(!('downloadUrl' in polled.body));
    }
    // The worker is free again: a new job completes.
    const next = (
      await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio' },
      })
    ).body.jobId;
    await waitFor(
      'the next job completes',
      async () => (await call('GET', `/api/v2/download/${next}`, { key: apiKey })).body.status === 'COMPLETED',
      60_000,
    );
  });

  it('answers 409 for a finished job, 404 for unknown and foreign jobs, 401 without a key', async () => {
    const owner = await service.createAccount();
    const other = await service.createAccount();
    const jobId = (
      await call('POST', '/api/v2/download', {
        key: owner.apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio' },
      })
    ).body.jobId;
    assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: other.apiKey })).status, 404);
    assert.equal(
      (await call('DELETE', '/api/v2/download/00000000-0000-0000-0000-000000000000', { key: owner.apiKey })).status,
      404,
    );
    assert.equal((await call('DELETE', '/api/v2/download/not%20a%20job!', { key: owner.apiKey })).status, 404);
    assert.equal((await call('DELETE', `/api/v2/download/${jobId}`)).status, 401);
    await waitFor(
      'the job completes',
      async () => (await call('GET', `/api/v2/download/${jobId}`, { key: owner.apiKey })).body.status === 'COMPLETED',
      60_000,
    );
    const refused = await call('DELETE', `/api/v2/download/${jobId}`, { key: owner.apiKey });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /already COMPLETED/);
  });

  it('sends the download.failed webhook of a cancelled job, signed, with the body a poll answers', async () => {
    receiver = await startWebhookReceiver(() => ({ status: 204 }));
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const jobId = (
      await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.slow.id), format: 'audio', webhookUrl: receiver.url() },
      })
    ).body.jobId;
    await waitFor(
      'yt-dlp downloads the slow video',
      async () => (await processesWorkingIn(service.config.storage.workDir)).length > 0,
    );
    assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);

    const [received] = await receiver.waitFor(1, 30_000);
    assert.equal(received.headers['x-service-event'], 'download.failed');
    assert.equal(received.headers['x-service-job-id'], jobId);
    assert.equal(received.headers['x-service-attempt'], '1');
    assert.equal(
      verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, apiKey).ok,
      true,
    );
    const body = JSON.parse(received.rawBody.toString('utf8'));
    assert.equal(body.status, 'FAILED');
    assert.ok(!('errorCode' in body), 'a cancel has no errorCode');
    const polled = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
    assert.deepEqual(body, polled.body);
    await waitFor(
      'no yt-dlp or ffmpeg is left',
      async () => (await processesWorkingIn(service.config.storage.workDir)).length === 0,
      15_000,
    );
    await waitFor('the webhook work is drained', () => webhookWorkDrained(jobId));
    assert.equal(receiver.received.length, 1, 'acknowledged once, sent once');
    assert.deepEqual(await deliveryEvents(jobId), ['WebhookAttemptStarted', 'WebhookAttemptSucceeded']);
  });
});
