import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { attemptFileKey } from '../../application/downloads/job-file-keys.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { FileStore } from '../../application/ports/file-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { createFileSweeper } from '../../infrastructure/features/retention/create-file-sweeper.js';
import type { FileSweeper } from '../../infrastructure/features/retention/file-sweeper.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for a completed job's link to be fetched before the file is due, short enough to wait for its deletion. */
const RETENTION_SECONDS = 4;

describe('end to end: produced files are deleted after their retention period', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  const sweepers: FileSweeper[] = [];

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({
      label: 'retention',
      // The sweepers are started by the test, to stop and restart them.
      roles: ['api', 'projector', 'worker'],
      env: {
        ...serviceEnvFor(platform),
        FILE_RETENTION_SECONDS: String(RETENTION_SECONDS),
        FILE_RETENTION_BELOW_LINK_TTL: 'allow',
        FILE_SWEEP_INTERVAL_SECONDS: '1',
        DOWNLOAD_MAX_ATTEMPTS: '2',
        DOWNLOAD_RETRY_BASE_MS: '100',
      },
    });
    call = apiClient(service.url);
  });
  after(async () => {
    for (const sweeper of sweepers) await sweeper.stop();
    await service?.stop();
    await platform?.stop();
  });

  function startSweeper(): FileSweeper {
    const sweeper = createFileSweeper(
      service.service.container,
      service.config.retention,
      service.config.storage,
      createLogger('silent'),
    );
    sweepers.push(sweeper);
    sweeper.start();
    return sweeper;
  }

  async function completedJob(
    key: string,
  ): Promise<{ jobId: string; downloadUrl: string; fileKey: string; completedAt: string }> {
    const { jobId } = (
      await call('POST', '/api/v2/download', {
        key,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio' },
      })
    ).body;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { body } = await call('GET', `/api/v2/download/${jobId}`, { key });
      if (body.status === 'COMPLETED') {
        await service.settle();
        const row = await service.service.container
          .resolve<import('knex').Knex>(TOKENS.database)('download_jobs')
          .where('job_id', jobId)
          .first();
        return { jobId, downloadUrl: body.downloadUrl, fileKey: row.file_key, completedAt: body.completedAt };
      }
      assert.ok(body.status !== 'FAILED' && Date.now() < deadline, `job ${jobId} is ${body.status}`);
      await sleep(150);
    }
  }

  const files = () => service.service.container.resolve<FileStore>(TOKENS.fileStore);
  const fileDeletedEvents = async (jobId: string, type = 'FileDeleted') =>
    (await service.service.container.resolve<EventStore>(TOKENS.eventStore).readStream(`download-${jobId}`)).filter(
      (event) => event.type === type,
    );

  /** Served until the file is due; 410 from then, whether or not the sweeper has deleted it yet. */
  async function waitUntilGone(downloadUrl: string): Promise<Response> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await fetch(downloadUrl);
      if (response.status !== 200) return response;
      await response.arrayBuffer();
      assert.ok(Date.now() < deadline, 'the file was never deleted');
      await sleep(200);
    }
  }

  /** Waits until the job's deletion is recorded: a sweeper removes the files first and records it after. */
  async function waitForEvents(jobId: string, type = 'FileDeleted'): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await fileDeletedEvents(jobId, type)).length === 0) {
      assert.ok(Date.now() < deadline, `no ${type} for job ${jobId}`);
      await sleep(100);
    }
  }

  /** Waits until a link answers `status` (a link answers 410 once its file is due). */
  async function waitForStatus(url: string, status: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === status) return;
      assert.ok(Date.now() < deadline, `${url} still answers ${response.status}`);
      await sleep(200);
    }
  }

  it('deletes the file, records FileDeleted once, answers 410 on old links and keeps the completed poll; a restarted sweeper carries on', async () => {
    const { apiKey } = await service.createAccount();
    const first = await completedJob(apiKey);
    // A poll late in the retention period (the link's lifetime, 6 h, is far longer) gets a link that expires when the file is deleted.
    const deletedAt = Math.floor(Date.parse(first.completedAt) / 1000) + RETENTION_SECONDS;
    assert.equal(Number(new URL(first.downloadUrl).searchParams.get('expires')), deletedAt);
    const fetched = await fetch(first.downloadUrl);
    assert.equal(fetched.status, 200, 'served while retained');
    await fetched.arrayBuffer();

    // Two sweepers at once: one sweeps, the other waits on the lock; the deletion is recorded once either way.
    const firstSweeper = startSweeper();
    const standby = startSweeper();
    const gone = await waitUntilGone(first.downloadUrl);
    assert.equal(gone.status, 410);
    assert.match(gone.headers.get('content-type') ?? '', /application\/json/);
    assert.match((await gone.json()).error, /deleted after its retention period/);
    // Stopped, neither sweeper has a pass under way: whatever they recorded is all they will.
    await waitForEvents(first.jobId);
    assert.equal(await files().stat(first.fileKey), null);
    await firstSweeper.stop();
    await standby.stop();
    const events = await fileDeletedEvents(first.jobId);
    assert.equal(events.length, 1);
    assert.equal((events[0].data as { fileKey: string }).fileKey, first.fileKey);

    await service.settle();
    const polled = await call('GET', `/api/v2/download/${first.jobId}`, { key: apiKey });
    assert.equal(polled.body.status, 'COMPLETED', 'the job keeps its completed shape');
    assert.equal((await fetch(polled.body.downloadUrl)).status, 410, 'a fresh link answers 410 too');

    // Restart: with none running, a new one starts and deletes a later job's file.
    const second = await completedJob(apiKey);
    await waitForStatus(second.downloadUrl, 410);
    assert.notEqual(
      await files().stat(second.fileKey),
      null,
      'the link answers 410 once the file is due, though nothing deletes files while no sweeper runs',
    );
    const polledLate = await call('GET', `/api/v2/download/${second.jobId}`, { key: apiKey });
    assert.equal(
      (await fetch(polledLate.body.downloadUrl)).status,
      410,
      'a poll hands out no usable link past retention',
    );
    const restarted = startSweeper();
    assert.equal((await waitUntilGone(second.downloadUrl)).status, 410);
    await waitForEvents(second.jobId);
    await restarted.stop();
    assert.equal((await fileDeletedEvents(second.jobId)).length, 1);
    assert.equal((await fileDeletedEvents(first.jobId)).length, 1);
  });

  it('deletes every file an ended job left, completed or failed, not only the completed one', async () => {
    for (const sweeper of sweepers) await sweeper.stop();
    const { accountId, apiKey } = await service.createAccount();
    const completed = await completedJob(apiKey);
    const { jobId: failedJobId } = (
      await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.broken.id) },
      })
    ).body;
    const deadline = Date.now() + 60_000;
    while ((await call('GET', `/api/v2/download/${failedJobId}`, { key: apiKey })).body.status !== 'FAILED') {
      assert.ok(Date.now() < deadline, 'the broken download never failed');
      await sleep(150);
    }
    await service.settle();
    // Files of attempts whose workers died after storing them, which nothing removed when the jobs ended.
    const work = await mkdtemp(path.join(tmpdir(), 'dead-attempts-'));
    const left = [
      attemptFileKey(accountId, completed.jobId, 9, 'webm'),
      attemptFileKey(accountId, failedJobId, 1, 'm4a'),
    ];
    for (const [index, key] of left.entries()) {
      const local = path.join(work, `${index}.bin`);
      await writeFile(local, 'stored by an attempt that died');
      await files().put(key, local);
    }

    const sweeper = startSweeper();
    const until = Date.now() + 30_000;
    for (;;) {
      const stored = await Promise.all([completed.fileKey, ...left].map((key) => files().stat(key)));
      if (stored.every((file) => file === null)) break;
      assert.ok(Date.now() < until, 'some files were never deleted');
      await sleep(200);
    }
    await waitForEvents(completed.jobId);
    await waitForEvents(failedJobId, 'FailedJobFilesDeleted');
    await sweeper.stop();
    assert.equal((await fileDeletedEvents(completed.jobId)).length, 1);
    assert.equal((await fileDeletedEvents(failedJobId, 'FailedJobFilesDeleted')).length, 1);
    await service.settle();
    const db = service.service.container.resolve<import('knex').Knex>(TOKENS.database);
    assert.equal(
      (await db('deleted_files').whereIn('job_id', [completed.jobId, failedJobId])).length,
      2,
      'the sweeper will not look at either again',
    );
  });
});
