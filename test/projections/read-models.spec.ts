import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { AccountCommandHandler } from '../../application/accounts/account-commands.js';
import { ReplayAccountLedger } from '../../application/audit/replay-account-ledger.js';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import type { EventStore } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { PROJECTIONS } from '../../infrastructure/features/features.js';
import type { Storage } from '../../infrastructure/database/open-storage.js';
import { ProjectionRunner } from '../../infrastructure/processing/projection-runner.js';
import { rebuildProjections } from '../../infrastructure/processing/rebuild.js';
import { type TestService, startTestService } from '../support/test-service.js';

for (const embedded of [false, true])
  describe(`read models: download jobs and accounts (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(90_000);
    let service: TestService;
    let db: Knex;
    let jobs: DownloadJobCommandHandler;
    let accounts: AccountCommandHandler;
    const now = () => new Date().toISOString();

    before(async () => {
      service = await startTestService({ roles: ['projector'], label: 'read_models', embedded });
      db = service.service.container.resolve<Knex>(TOKENS.database);
      jobs = service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
      accounts = service.service.container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
    });
    after(async () => service?.stop());

    async function runJob(accountId: string, jobId: string, outcome: 'complete' | 'fail' | 'queue') {
      await accounts.handle(accountId, { type: 'ReserveDownload', data: { jobId, pendingLimit: 100, now: now() } });
      await jobs.handle(jobId, {
        type: 'SubmitDownload',
        data: {
          jobId,
          accountId,
          url: `https://www.youtube.com/watch?v=${jobId.slice(0, 11)}`,
          format: 'audio',
          startTime: null,
          endTime: null,
          language: null,
          webhookUrl: null,
          title: `Title ${jobId}`,
          duration: 42,
          maxFileSizeBytes: 1e9,
          now: now(),
        },
      });
      if (outcome === 'queue') return;
      await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: 'l1', messageId: 'm1', now: now() } });
      if (outcome === 'complete') {
        const fileSize = 1_000_000 * (jobId.length + 3);
        await jobs.handle(jobId, {
          type: 'CompleteJob',
          data: {
            jobId,
            fileKey: `${accountId}/${jobId}.m4a`,
            fileSize,
            actualFormat: 'audio',
            mimeType: 'audio/mp4',
            fileExtension: 'm4a',
            now: now(),
          },
        });
        await accounts.handle(accountId, {
          type: 'ChargeBandwidth',
          data: { jobId, fileSizeBytes: fileSize, now: now() },
        });
      } else {
        await jobs.handle(jobId, {
          type: 'FailJob',
          data: { jobId, errorCode: 'PRIVATE_VIDEO', reason: 'Private video', now: now() },
        });
        await accounts.handle(accountId, { type: 'ReleaseDownload', data: { jobId, now: now() } });
      }
    }

    const snapshot = async () => ({
      jobs: await db('download_jobs').orderBy('job_id'),
      accounts: (await db('accounts').orderBy('account_id')).map(({ updated_at: _ignored, ...row }) => row),
      keys: await db('api_keys').orderBy('key_hash'),
    });

    it('projects every transition of a job into the polling row', async () => {
      const { accountId } = await service.createAccount();
      await runJob(accountId, 'job-complete-0001', 'complete');
      await runJob(accountId, 'job-failed-00001', 'fail');
      await runJob(accountId, 'job-queued-00001', 'queue');
      await service.settle();
      const rows = Object.fromEntries(
        (await db('download_jobs').where('account_id', accountId)).map((row) => [row.job_id, row]),
      );
      assert.equal(rows['job-complete-0001'].status, 'COMPLETED');
      assert.equal(Number(rows['job-complete-0001'].file_size), 20_000_000);
      assert.ok(rows['job-complete-0001'].started_at instanceof Date);
      assert.equal(rows['job-failed-00001'].status, 'FAILED');
      assert.equal(rows['job-failed-00001'].error_code, 'PRIVATE_VIDEO');
      assert.equal(rows['job-queued-00001'].status, 'IN_QUEUE');
      assert.equal(rows['job-queued-00001'].started_at, null);
      const replay = await service.service.container.resolve(ReplayAccountLedger).execute(accountId);
      assert.deepEqual(replay?.differences, []);
      assert.equal(replay?.replayed.bandwidth_mb?.used, 20);
    });

    it('resumes after a restart without applying anything twice, and a rebuild equals the live tables', async () => {
      const container = service.service.container;
      const options = {
        db,
        store: container.resolve<EventStore>(TOKENS.eventStore),
        connectionString: service.config.storage.databaseUrl,
        acquireLock: container.resolve<Storage>(TOKENS.storage).acquireLock,
        logger: container.resolve<Logger>(TOKENS.logger),
      };
      const { accountId } = await service.createAccount();
      await runJob(accountId, 'job-before-stop1', 'complete');
      await service.settle();
      await service.service.projections?.stop();

      // Written while no projector runs: a new runner must pick these up exactly once.
      await runJob(accountId, 'job-while-down01', 'complete');
      await runJob(accountId, 'job-while-down02', 'fail');
      await container.resolve(AccountAdministration).grantExtraUnits(accountId, 'download_count', 3);
      const restarted = new ProjectionRunner(PROJECTIONS, options);
      await restarted.start();
      await restarted.waitUntilCaughtUp(null, { timeoutMs: 20_000 });
      const live = await snapshot();
      const report = await container.resolve(ReplayAccountLedger).execute(accountId);
      assert.deepEqual(report?.differences, []);
      assert.equal(report?.replayed.download_count?.used, 2);
      assert.equal(report?.entries.filter((entry) => entry.kind === 'charge').length, 2);
      await restarted.stop();

      const indexes = async () =>
        (
          await db.raw<{ rows: Array<{ indexname: string }> }>(
            `SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
          )
        ).rows;
      const indexesBefore = await indexes();
      await rebuildProjections(PROJECTIONS, options);
      assert.deepEqual(await snapshot(), live);
      assert.deepEqual(
        await indexes(),
        indexesBefore,
        'the swapped-in tables carry the indexes under their usual names',
      );
    });
  });
