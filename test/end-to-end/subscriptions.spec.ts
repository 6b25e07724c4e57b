import assert from 'node:assert/strict';
import { FIXTURE_GROWING_CHANNEL } from '../fixtures/platform/fixture-list-catalog.js';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WorkerProcess, startWorkerProcess } from '../support/worker-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SubscriptionBody {
  subscriptionId: string;
  lastCheck: { checkId: string; found: number | null; failure: string | null } | null;
  videosSeen: number;
  jobs: Array<{ jobId: string; videoUrl: string; title: string | null }>;
}

/** A test's view of one service: its client and the waits its specs share. */
function subscriptionSteps(service: () => TestService, platform: () => FixturePlatform) {
  const call = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(service().url)(...args);
  const get = async (key: string, id: string): Promise<SubscriptionBody> => {
    const response = await call('GET', `/api/v2/subscriptions/${id}`, { key });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };
  return {
    call,
    get,
    async subscribe(key: string): Promise<SubscriptionBody> {
      const created = await call('POST', '/api/v2/subscriptions', {
        key,
        json: { channelUrl: platform().pageUrl(`/${FIXTURE_GROWING_CHANNEL.handle}`), format: 'audio' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body;
    },
    /** Waits until a check other than `previous` has ended, and answers the subscription then. */
    async untilChecked(key: string, id: string, previous: string | null): Promise<SubscriptionBody> {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const body = await get(key, id);
        if (body.lastCheck !== null && body.lastCheck.checkId !== previous) return body;
        assert.ok(Date.now() < deadline, `no check ended: ${JSON.stringify(body)}`);
        await sleep(200);
      }
    },
    async untilJobs(key: string, id: string, count: number): Promise<SubscriptionBody> {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const body = await get(key, id);
        if (body.jobs.length >= count) return body;
        assert.ok(Date.now() < deadline, `${body.jobs.length} jobs of ${count}: ${JSON.stringify(body)}`);
        await sleep(200);
      }
    },
    async untilCompleted(key: string, jobIds: string[]): Promise<void> {
      const deadline = Date.now() + 180_000;
      for (const jobId of jobIds)
        for (;;) {
          const job = await call('GET', `/api/v2/download/${jobId}`, { key });
          if (job.body.status === 'COMPLETED') break;
          assert.ok(!['FAILED'].includes(job.body.status), JSON.stringify(job.body));
          assert.ok(Date.now() < deadline, `job ${jobId} still ${job.body.status}`);
          await sleep(200);
        }
    },
    async checkNow(key: string, id: string): Promise<void> {
      const response = await call('POST', `/api/v2/subscriptions/${id}/check`, { key });
      assert.equal(response.status, 202, JSON.stringify(response.body));
    },
    async channelListUnitsUsed(key: string, expected: number): Promise<number> {
      let used = -1;
      for (let attempt = 0; attempt < 100 && used !== expected; attempt += 1) {
        await service().settle();
        used = (await call('GET', '/api/v2/me', { key })).body.balances.channel_list.used;
        if (used !== expected) await sleep(100);
      }
      return used;
    },
  };
}

for (const mode of ['server', 'embedded'] as const)
  describe(`end to end, ${mode} mode: a channel subscription`, function () {
    this.timeout(420_000);
    let platform: FixturePlatform;
    let service: TestService;
    const steps = subscriptionSteps(
      () => service,
      () => platform,
    );

    before(async () => {
      platform = await startFixturePlatform();
      service = await startTestService({
        label: `subscriptions-${mode}`,
        embedded: mode === 'embedded',
        env: serviceEnvFor(platform),
      });
    });
    after(async () => {
      await service?.stop();
      await platform?.stop();
    });

    it('takes none of the uploads there at first, then exactly the 3 new ones, each once, each check charged as a listing', async () => {
      const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
      const { subscriptionId } = await steps.subscribe(apiKey);
      const first = await steps.untilChecked(apiKey, subscriptionId, null);
      assert.equal(first.lastCheck?.failure, null, JSON.stringify(first));
      assert.equal(first.lastCheck?.found, 0);
      assert.equal(first.videosSeen, FIXTURE_GROWING_CHANNEL.videos.length);

      const added = [1, 2, 3].map(() => platform.addUpload(FIXTURE_GROWING_CHANNEL.handle));
      await steps.checkNow(apiKey, subscriptionId);
      const second = await steps.untilChecked(apiKey, subscriptionId, first.lastCheck?.checkId ?? null);
      assert.equal(second.lastCheck?.found, 3, JSON.stringify(second));
      const withJobs = await steps.untilJobs(apiKey, subscriptionId, 3);
      assert.deepEqual(
        withJobs.jobs.map((job) => job.videoUrl).sort(),
        added.map((video) => platform.watchUrl(video.id)).sort(),
      );
      await steps.untilCompleted(
        apiKey,
        withJobs.jobs.map((job) => job.jobId),
      );

      await steps.checkNow(apiKey, subscriptionId);
      const third = await steps.untilChecked(apiKey, subscriptionId, second.lastCheck?.checkId ?? null);
      assert.equal(third.lastCheck?.found, 0, 'a check with no new uploads takes nothing');
      assert.equal((await steps.get(apiKey, subscriptionId)).jobs.length, 3);
      assert.equal(await steps.channelListUnitsUsed(apiKey, 3), 3, 'one unit per check of up to 10 items');
    });
  });

describe('end to end: a subscription whose worker is killed between two checks', function () {
  this.timeout(420_000);
  let platform: FixturePlatform;
  let service: TestService;
  const workers: WorkerProcess[] = [];
  const steps = subscriptionSteps(
    () => service,
    () => platform,
  );

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'subscriptions_worker_kill',
      env: serviceEnvFor(platform),
    });
  });
  after(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    await service?.stop();
    await platform?.stop();
  });

  function startWorker(): WorkerProcess {
    const worker = startWorkerProcess(service, serviceEnvFor(platform));
    workers.push(worker);
    return worker;
  }

  it('the next worker takes exactly the 3 new uploads, once each, and completes them', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
    const first = startWorker();
    const { subscriptionId } = await steps.subscribe(apiKey);
    const checked = await steps.untilChecked(apiKey, subscriptionId, null);
    assert.equal(checked.lastCheck?.found, 0, first.log());
    first.child.kill('SIGKILL');
    await first.exited;

    const added = [1, 2, 3].map(() => platform.addUpload(FIXTURE_GROWING_CHANNEL.handle));
    await steps.checkNow(apiKey, subscriptionId);
    const next = startWorker();
    const again = await steps.untilChecked(apiKey, subscriptionId, checked.lastCheck?.checkId ?? null);
    assert.equal(again.lastCheck?.found, 3, next.log());
    const withJobs = await steps.untilJobs(apiKey, subscriptionId, 3);
    await steps.untilCompleted(
      apiKey,
      withJobs.jobs.map((job) => job.jobId),
    );
    const final = await steps.get(apiKey, subscriptionId);
    assert.deepEqual(
      final.jobs.map((job) => job.videoUrl).sort(),
      added.map((video) => platform.watchUrl(video.id)).sort(),
    );
    assert.equal(new Set(final.jobs.map((job) => job.jobId)).size, 3);
  });
});
