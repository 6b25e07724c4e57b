import assert from 'node:assert/strict';
import type { DownloadJobCommandHandler } from '../../../application/downloads/download-job-commands.js';
import type { AnomalyKind } from '../../../application/ports/anomalies.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { ReleaseOrphanedReservation } from '../../../application/processes/release-orphaned-reservation.js';
import { SettleDownloadBilling } from '../../../application/processes/settle-download-billing.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { JobAbandonedError } from '../../../domain/errors.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { givenAccount } from '../../support/givens/given-account.js';
import { givenDownloadJob, givenReservedDownload } from '../../support/givens/given-download.js';

describe('releasing an orphaned reservation against a slow submission', () => {
  const ids = new RandomIds();
  const clock = new SystemClock();
  const now = () => new Date().toISOString();
  const graceMs = 1_000;

  async function setUp() {
    const store = new InMemoryEventStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const accountId = await givenAccount(store);
    const jobId = await givenReservedDownload(store, { accountId });
    const submitJob = () => givenDownloadJob(store, { accountId, jobId });
    // The reservation event was recorded past the grace period.
    const message = { jobId, accountId, occurredAt: new Date(Date.now() - 2 * graceMs).toISOString() };
    const pending = async () => (await accounts.load(accountId)).state.pendingJobs;
    return { store, accounts, jobs, accountId, jobId, submitJob, message, pending };
  }

  it("keeps the reservation when the job is written between the releaser's look and its release", async () => {
    const { accounts, jobs, jobId, submitJob, message, pending } = await setUp();
    // The submission's job append lands right after the releaser found no job.
    const racing = {
      load: async (id: string) => {
        const loaded = await jobs.load(id);
        await submitJob();
        return loaded;
      },
      handle: jobs.handle.bind(jobs),
    } as unknown as DownloadJobCommandHandler;
    await new ReleaseOrphanedReservation(racing, accounts, clock, graceMs).handle(message);
    assert.deepEqual(await pending(), [jobId], 'the job that now exists keeps its reservation');
    assert.equal((await jobs.load(jobId)).state.status, 'IN_QUEUE');
  });

  it('abandons the job stream first, so a submission arriving afterwards fails cleanly instead of running unreserved', async () => {
    const { accounts, jobs, jobId, submitJob, message, pending, store } = await setUp();
    await new ReleaseOrphanedReservation(jobs, accounts, clock, graceMs).handle(message);
    assert.deepEqual(await pending(), []);
    assert.deepEqual(
      (await store.readStream(`download-${jobId}`)).map((event) => event.type),
      ['DownloadAbandoned'],
    );
    await assert.rejects(submitJob(), JobAbandonedError);
    // A redelivery releases nothing twice and writes nothing more.
    await new ReleaseOrphanedReservation(jobs, accounts, clock, graceMs).handle(message);
    assert.equal((await store.readStream(`download-${jobId}`)).length, 1);
  });

  it('records an anomaly when a completed job is charged with no reservation to charge, but not for a repeated charge', async () => {
    const { accounts, jobs, jobId, accountId, submitJob, store } = await setUp();
    await submitJob();
    await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: 'l1', messageId: 'm1', now: now() } });
    await jobs.handle(jobId, {
      type: 'CompleteJob',
      data: {
        jobId,
        fileKey: 'k',
        fileSize: 5,
        actualFormat: 'audio',
        mimeType: 'audio/mp4',
        fileExtension: 'm4a',
        now: now(),
      },
    });
    const recorded: AnomalyKind[] = [];
    const settle = new SettleDownloadBilling(jobs, accounts, clock, store, { record: (kind) => recorded.push(kind) });
    const message = { jobId, accountId, occurredAt: now() };
    await settle.handle(message);
    await settle.handle(message);
    assert.equal(recorded.length, 0, 'a charged job charged again is a plain repeat');

    const other = await setUp();
    await other.submitJob();
    await other.accounts.handle(other.accountId, { type: 'ReleaseDownload', data: { jobId: other.jobId, now: now() } });
    await other.jobs.handle(other.jobId, {
      type: 'StartJob',
      data: { jobId: other.jobId, leaseId: 'l1', messageId: 'm1', now: now() },
    });
    await other.jobs.handle(other.jobId, {
      type: 'CompleteJob',
      data: {
        jobId: other.jobId,
        fileKey: 'k',
        fileSize: 5,
        actualFormat: 'audio',
        mimeType: 'audio/mp4',
        fileExtension: 'm4a',
        now: now(),
      },
    });
    await new SettleDownloadBilling(other.jobs, other.accounts, clock, other.store, {
      record: (kind) => recorded.push(kind),
    }).handle({ ...other.message, occurredAt: now() });
    assert.deepEqual(recorded, ['charge_without_reservation']);
  });
});
