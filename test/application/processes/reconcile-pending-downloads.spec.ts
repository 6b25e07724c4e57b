import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { Logger } from '../../../application/ports/logger.js';
import { ReconcilePendingDownloads } from '../../../application/processes/reconcile-pending-downloads.js';
import { ReleaseOrphanedReservation } from '../../../application/processes/release-orphaned-reservation.js';
import { SettleDownloadBilling } from '../../../application/processes/settle-download-billing.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { givenAccount } from '../../support/givens/given-account.js';
import { givenQueuedDownload } from '../../support/givens/given-download.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('reconciling downloads pending past the limit', () => {
  it('fails queued and running jobs, settles finished ones, releases reservations without a job, and leaves recent ones alone', async () => {
    const store = new InMemoryEventStore();
    const ids = new RandomIds();
    let nowMs = Date.parse('2026-05-01T00:00:00Z');
    const clock: Clock = { now: () => new Date(nowMs) };
    const at = () => new Date(nowMs).toISOString();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const accountId = await givenAccount(store, { now: at() });
    const submit = (jobId: string) => givenQueuedDownload(store, { accountId, jobId, now: at() });
    const [queued, running, completed, orphan, recent] = Array.from({ length: 5 }, () => randomUUID());
    await submit(queued);
    await submit(running);
    await jobs.handle(running, {
      type: 'StartJob',
      data: { jobId: running, leaseId: 'l', messageId: 'm1', now: at() },
    });
    await submit(completed);
    await jobs.handle(completed, {
      type: 'StartJob',
      data: { jobId: completed, leaseId: 'l', messageId: 'm1', now: at() },
    });
    await jobs.handle(completed, {
      type: 'CompleteJob',
      data: {
        jobId: completed,
        fileKey: 'k',
        fileSize: 30_000_000,
        actualFormat: 'audio',
        mimeType: 'audio/mp4',
        fileExtension: 'm4a',
        now: at(),
      },
    });
    await accounts.handle(accountId, {
      type: 'ReserveDownload',
      data: { jobId: orphan, pendingLimit: 100, now: at() },
    });
    nowMs += 3_600_000;
    await submit(recent);

    const settle = new SettleDownloadBilling(jobs, accounts, clock, store, { record() {} });
    const release = new ReleaseOrphanedReservation(jobs, accounts, clock, 60_000);
    const announced: string[] = [];
    const cancellations = { announce: async (jobId: string) => void announced.push(jobId) };
    const reconcile = new ReconcilePendingDownloads({
      store,
      jobs,
      accounts,
      pending: { accountIds: async () => [accountId] },
      settle,
      releaseOrphan: release,
      clock,
      logger: silent,
      pendingLimitMs: 1_800_000,
      cancellations,
    });
    assert.deepEqual(await reconcile.runOnce(), { failedJobs: 2, settledReservations: 4 });
    assert.deepEqual(
      announced.sort(),
      [queued, running].sort(),
      'the workers still running the jobs it failed are told to stop',
    );

    const status = async (jobId: string) => (await jobs.load(jobId)).state.status;
    assert.equal(await status(queued), 'FAILED');
    assert.equal(await status(running), 'FAILED');
    assert.equal(await status(completed), 'COMPLETED');
    assert.equal(await status(orphan), 'ABANDONED');
    assert.equal(await status(recent), 'IN_QUEUE');
    const { state } = await accounts.load(accountId);
    assert.deepEqual(state.pendingJobs, [recent]);
    assert.equal(state.usage.bandwidth_mb, 30, 'the completed job was charged');
    assert.equal(state.usage.download_count, 1);
    assert.deepEqual(
      await reconcile.runOnce(),
      { failedJobs: 0, settledReservations: 0 },
      'a second sweep finds nothing',
    );
    assert.equal(announced.length, 2);
  });
});
