import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import { attemptFileKey } from '../../application/downloads/job-file-keys.js';
import type { Clock } from '../../application/ports/clock.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { FileStore } from '../../application/ports/file-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { createFileSweeper } from '../../infrastructure/features/retention/create-file-sweeper.js';
import type { FileSweeper } from '../../infrastructure/features/retention/file-sweeper.js';
import { PROJECTIONS } from '../../infrastructure/features/features.js';
import type { Storage } from '../../infrastructure/database/open-storage.js';
import { rebuildProjections } from '../../infrastructure/processing/rebuild.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** A clock the test moves forward, to see a kept job's link signed afresh. */
class MovableClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Server mode runs two API processes' worth of service on one database; embedded mode is one process.
for (const embedded of [false, true])
  describe(`end to end: polls of finished jobs kept in memory (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(90_000);
    const clock = new MovableClock();
    let first: TestService;
    let second: TestService | null = null;
    let apis: TestService[];
    let sweeper: FileSweeper | null = null;

    before(async () => {
      // Files are due a second after completion, so the sweeper, started by the test, deletes as soon as it runs.
      const retention = {
        FILE_RETENTION_SECONDS: '1',
        FILE_RETENTION_BELOW_LINK_TTL: 'allow',
        FILE_SWEEP_INTERVAL_SECONDS: '1',
      };
      first = await startTestService({
        roles: ['api', 'projector'],
        label: 'finished_polls',
        embedded,
        env: retention,
        overrides: { clock },
      });
      if (!embedded) {
        second = await startTestService({
          roles: ['api'],
          label: 'finished_polls_second',
          env: {
            ...retention,
            DATABASE_URL: first.config.storage.databaseUrl,
            MASTER_KEY_FILE: first.config.security.masterKeyFile,
            FILES_DIR: first.config.storage.filesDir,
          },
        });
      }
      apis = second === null ? [first] : [first, second];
    });
    after(async () => {
      await sweeper?.stop();
      await second?.stop();
      await first?.stop();
    });

    const db = () => first.service.container.resolve<Knex>(TOKENS.database);

    /** A completed job with a stored file, written through the job's commands; settled, since no reservation is pending. */
    async function completedJob(accountId: string): Promise<string> {
      const jobs = first.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
      const jobId = randomUUID();
      const now = () => new Date().toISOString();
      const fileKey = attemptFileKey(accountId, jobId, 1, 'm4a');
      const scratch = await mkdtemp(path.join(tmpdir(), 'vds-finished-'));
      await writeFile(path.join(scratch, 'file.m4a'), 'audio bytes');
      await first.service.container.resolve<FileStore>(TOKENS.fileStore).put(fileKey, path.join(scratch, 'file.m4a'));
      await rm(scratch, { recursive: true, force: true });
      const data = {
        jobId,
        accountId,
        url: 'https://video.example/watch?v=kept',
        format: 'audio' as const,
        startTime: null,
        endTime: null,
        language: null,
        webhookUrl: null,
      };
      await jobs.handle(jobId, {
        type: 'SubmitDownload',
        data: { ...data, title: 'Kept title', duration: 12, maxFileSizeBytes: 1e9, now: now() },
      });
      await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: 'lease', messageId: 'm1', now: now() } });
      await jobs.handle(jobId, {
        type: 'CompleteJob',
        data: {
          jobId,
          fileKey,
          fileSize: 11,
          actualFormat: 'audio',
          mimeType: 'audio/mp4',
          fileExtension: 'm4a',
          leaseId: 'lease',
          now: now(),
        },
      });
      await first.settle();
      return jobId;
    }

    it('answers from memory until the file is deleted, then every API process shows the deletion promptly', async () => {
      const { accountId, apiKey } = await first.createAccount();
      const jobId = await completedJob(accountId);
      for (const api of apis) {
        const polled = await apiClient(api.url)('GET', `/api/v2/download/${jobId}`, { key: apiKey });
        assert.equal(polled.body.status, 'COMPLETED');
        assert.equal(polled.body.title, 'Kept title');
      }

      // Behind the projection's back: a process that still reads the row for every poll shows this at once.
      await db()('download_jobs').where('job_id', jobId).update({ title: 'Changed behind its back' });
      for (const api of apis) {
        const polled = await apiClient(api.url)('GET', `/api/v2/download/${jobId}`, { key: apiKey });
        assert.equal(polled.body.title, 'Kept title', 'a settled finished job is answered without reading its row');
      }

      sweeper = createFileSweeper(
        first.service.container,
        first.config.retention,
        first.config.storage,
        createLogger('silent'),
      );
      sweeper.start();
      for (const api of apis) {
        // The deleted_files projection announces the deletion: each process forgets the job and reads the row again.
        const polled = await until(`${api.url} forgets the job`, async () => {
          const answer = await apiClient(api.url)('GET', `/api/v2/download/${jobId}`, { key: apiKey });
          return answer.body.title === 'Changed behind its back' ? answer : undefined;
        });
        assert.equal(polled.body.status, 'COMPLETED', 'a job whose file was deleted keeps its completed shape');
        assert.equal((await fetch(polled.body.downloadUrl)).status, 410, 'its link says the file was deleted');
      }
      // Later tests' jobs keep their files, so only what they test makes a process forget them.
      await sweeper.stop();
      sweeper = null;
    });

    it('signs the link of a kept job afresh for every poll, and keeps other accounts out', async () => {
      const { accountId, apiKey } = await first.createAccount();
      const other = await first.createAccount();
      const jobId = await completedJob(accountId);
      const call = apiClient(first.url);
      const before = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(before.body.status, 'COMPLETED');
      assert.equal((await call('GET', `/api/v2/download/${jobId}`, { key: other.apiKey })).status, 404);
      // Far enough back that the link's lifetime, not the file's deletion a second after completion, sets its expiry.
      clock.offsetMs = -(first.config.retention.downloadLinkTtlSeconds + 3600) * 1000;
      try {
        const earlier = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
        const expires = (url: string) => Number(new URL(url).searchParams.get('expires'));
        assert.ok(
          expires(earlier.body.downloadUrl) < expires(before.body.downloadUrl),
          'the link follows the clock, not the kept view',
        );
      } finally {
        clock.offsetMs = 0;
      }
    });

    it('forgets every kept view when a rebuild swaps the read models in', async function () {
      // A rebuild runs beside a server's projector; the embedded database is rebuilt with the service stopped.
      if (embedded) this.skip();
      const { accountId, apiKey } = await first.createAccount();
      const jobId = await completedJob(accountId);
      const calls = apis.map((api) => apiClient(api.url));
      for (const call of calls)
        assert.equal((await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body.title, 'Kept title');
      const container = first.service.container;
      await rebuildProjections(PROJECTIONS, {
        db: db(),
        store: container.resolve<EventStore>(TOKENS.eventStore),
        connectionString: first.config.storage.databaseUrl,
        acquireLock: container.resolve<Storage>(TOKENS.storage).acquireLock,
        logger: container.resolve<Logger>(TOKENS.logger),
      });
      // After the swap, a change only the new tables hold shows in every process: none answers from what it kept before.
      await db()('download_jobs').where('job_id', jobId).update({ title: 'Changed after the rebuild' });
      for (const call of calls) {
        await until('the rebuild is announced', async () => {
          const answer = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
          return answer.body.title === 'Changed after the rebuild' ? answer : undefined;
        });
      }
    });
  });
