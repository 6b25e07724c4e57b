import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../application/command-handler.js';
import type { ProgressReports } from '../../application/ports/download-progress.js';
import type { EventStore } from '../../application/ports/event-store.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../domain/download-job/decider.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { RandomIds } from '../../infrastructure/system/random-ids.js';
import { apiClient } from '../support/api-client.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { givenDownloadJob } from '../support/givens/given-download.js';
import { type TestService, startTestService } from '../support/test-service.js';

type Body = Record<string, any>;

for (const embedded of [false, true])
  describe(`end to end: polls of queued and running jobs kept in memory (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(90_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;
    const streams: EventStreamClient[] = [];

    before(async () => {
      service = await startTestService({ roles: ['api', 'projector'], label: 'pending_polls', embedded });
      call = apiClient(service.url);
    });
    afterEach(() => {
      for (const stream of streams.splice(0)) stream.close();
    });
    after(async () => service?.stop());

    const store = () => service.service.container.resolve<EventStore>(TOKENS.eventStore);
    // A writer of its own, as a worker in another process is: only the job's stream tells the API of its changes.
    const elsewhere = () => new CommandHandler(store(), downloadJobDecider, DOWNLOAD_JOB_CATEGORY, new RandomIds());
    const now = () => new Date().toISOString();
    const poll = (jobId: string, key: string) => call('GET', `/api/v2/download/${jobId}`, { key });

    /** A queued job with no reservation, so it reads as finished as soon as it finishes; watched live. */
    async function watchedJob(accountId: string, apiKey: string) {
      const jobId = await givenDownloadJob(store(), { accountId, jobId: randomUUID() });
      const stream = await EventStreamClient.open(`${service.url}/api/v2/download/${jobId}/events`, {
        Authorization: `Bearer ${apiKey}`,
      });
      streams.push(stream);
      return { jobId, stream };
    }

    /** The live stream shows what the API process heard; the poll right after it must show it too. */
    async function pollOnceStreamShows(stream: EventStreamClient, jobId: string, key: string, what: string) {
      const shows = (body: Body) => (what === 'progress' ? body.progress !== undefined : body.status === what);
      await stream.waitFor(`the stream shows ${what}`, () => stream.bodies().find(shows));
      return (await poll(jobId, key)).body as Body;
    }

    it("shows a job's start, progress and completion in the next poll, and another account's job stays 404", async () => {
      const { accountId, apiKey } = await service.createAccount();
      const other = await service.createAccount();
      const { jobId, stream } = await watchedJob(accountId, apiKey);
      for (let i = 0; i < 3; i += 1) assert.equal((await poll(jobId, apiKey)).body.status, 'IN_QUEUE');
      assert.equal((await poll(jobId, other.apiKey)).status, 404, "another account's job reads as missing");

      await elsewhere().handle(jobId, {
        type: 'StartJob',
        data: { jobId, leaseId: 'lease', messageId: 'm1', now: now() },
      });
      assert.equal((await pollOnceStreamShows(stream, jobId, apiKey, 'IN_PROGRESS')).status, 'IN_PROGRESS');
      assert.equal((await poll(jobId, other.apiKey)).status, 404, 'still missing once running');

      service.service.container.resolve<ProgressReports>(TOKENS.progressReports).report(jobId, {
        stage: 'downloading',
        percent: 40,
      });
      assert.equal((await pollOnceStreamShows(stream, jobId, apiKey, 'progress')).progress?.percent, 40);

      await elsewhere().handle(jobId, {
        type: 'CompleteJob',
        data: {
          jobId,
          fileKey: 'kept.m4a',
          fileSize: 11,
          actualFormat: 'audio',
          mimeType: 'audio/mp4',
          fileExtension: 'm4a',
          leaseId: 'lease',
          now: now(),
        },
      });
      assert.equal((await pollOnceStreamShows(stream, jobId, apiKey, 'COMPLETED')).status, 'COMPLETED');
    });

    it("shows a running job's failure in the next poll", async () => {
      const { accountId, apiKey } = await service.createAccount();
      const { jobId, stream } = await watchedJob(accountId, apiKey);
      await elsewhere().handle(jobId, {
        type: 'StartJob',
        data: { jobId, leaseId: 'lease', messageId: 'm1', now: now() },
      });
      assert.equal((await pollOnceStreamShows(stream, jobId, apiKey, 'IN_PROGRESS')).status, 'IN_PROGRESS');
      assert.equal((await poll(jobId, apiKey)).body.status, 'IN_PROGRESS');
      await elsewhere().handle(jobId, {
        type: 'FailJob',
        data: { jobId, errorCode: 'VIDEO_UNAVAILABLE', reason: 'broken', leaseId: 'lease', now: now() },
      });
      const failed = await pollOnceStreamShows(stream, jobId, apiKey, 'FAILED');
      assert.equal(failed.status, 'FAILED');
      assert.equal(failed.errorCode, 'VIDEO_UNAVAILABLE');
    });

    it('shows a cancel through the API in the very next poll', async () => {
      const { accountId, apiKey } = await service.createAccount();
      const jobId = await givenDownloadJob(store(), { accountId, jobId: randomUUID() });
      assert.equal((await poll(jobId, apiKey)).body.status, 'IN_QUEUE');
      assert.equal((await poll(jobId, apiKey)).body.status, 'IN_QUEUE');
      const cancelled = await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal((await poll(jobId, apiKey)).body.status, 'FAILED');
    });
  });
