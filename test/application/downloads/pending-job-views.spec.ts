import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../../application/downloads/download-job-commands.js';
import { GetDownloadJob } from '../../../application/downloads/get-download-job.js';
import { PendingJobViews } from '../../../application/downloads/pending-job-views.js';
import type { DownloadJobReadModel } from '../../../application/ports/read-models.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { givenDownloadJob } from '../../support/givens/given-download.js';
import { waitFor } from '../../support/wait-for.js';

/** Jobs in an in-memory store, the stream folds and the read model's reads counted; the read model has no rows. */
function pollingSetup(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const store = new InMemoryEventStore();
  const handler = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, new RandomIds());
  const counts = { folds: 0, rowReads: 0 };
  // While set, a fold that has read its stream waits for it before it answers.
  const folding: { held: Promise<void> | null } = { held: null };
  const jobs = {
    load: async (jobId: string) => {
      counts.folds += 1;
      const loaded = await handler.load(jobId);
      await folding.held;
      return loaded;
    },
  } as DownloadJobCommandHandler;
  const readModel: DownloadJobReadModel = {
    list: async () => [],
    get: async () => {
      counts.rowReads += 1;
      return null;
    },
  };
  const clock = { ms: 0 };
  const following = { stretch: 0 as number | null };
  const views = new PendingJobViews({
    maxEntries: options.maxEntries ?? 100,
    maxAgeMs: options.maxAgeMs ?? 1_000,
    nowMs: () => clock.ms,
  });
  views.serveWhile(() => following.stretch);
  const query = new GetDownloadJob(readModel, jobs, null, null, views);
  const queued = (accountId = 'account-1') => givenDownloadJob(store, { accountId, jobId: randomUUID() });
  const start = (jobId: string) =>
    handler.handle(jobId, {
      type: 'StartJob',
      data: { jobId, leaseId: 'lease', messageId: 'm1', now: new Date().toISOString() },
    });
  return { query, views, counts, clock, following, folding, queued, start };
}

describe("application: queued and running jobs' views kept in memory", () => {
  it('answers a queued job from memory after one fold, and keeps it from other accounts', async () => {
    const { query, counts, queued } = pollingSetup();
    const jobId = await queued();
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_QUEUE');
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_QUEUE');
    assert.equal(await query.execute('account-2', jobId), null, "another account's job reads as missing");
    assert.equal(counts.folds, 1);
    assert.equal(counts.rowReads, 0);
  });

  it('shows a status change in the next poll once it is announced', async () => {
    const { query, views, queued, start } = pollingSetup();
    const jobId = await queued();
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_QUEUE');
    await start(jobId);
    views.changed(jobId);
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
  });

  it('does not keep a view folded while a change was announced', async () => {
    const { query, views, counts, queued, start } = pollingSetup();
    const jobId = await queued();
    const polled = query.execute('account-1', jobId);
    // The fold under way may have read the stream before the change.
    views.changed(jobId);
    await polled;
    await start(jobId);
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
    assert.equal(counts.folds, 2);
  });

  it('keeps at most its bound, the least recently polled going first', async () => {
    const { query, counts, queued } = pollingSetup({ maxEntries: 2 });
    const [first, second, third] = [await queued(), await queued(), await queued()];
    for (const jobId of [first, second, third]) await query.execute('account-1', jobId);
    assert.equal(counts.folds, 3);
    await query.execute('account-1', third);
    await query.execute('account-1', second);
    assert.equal(counts.folds, 3, 'the two newest are kept');
    await query.execute('account-1', first);
    assert.equal(counts.folds, 4, 'the oldest was evicted');
  });

  it('folds the stream again in the background once a kept view is older than its bound', async () => {
    const { query, counts, clock, queued, start } = pollingSetup({ maxAgeMs: 1_000 });
    const jobId = await queued();
    await query.execute('account-1', jobId);
    clock.ms = 1_000;
    await query.execute('account-1', jobId);
    assert.equal(counts.folds, 1);
    // A change that was never announced: the bound on staleness is what shows it.
    await start(jobId);
    clock.ms = 1_001;
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_QUEUE', 'served while folded again');
    assert.equal(counts.folds, 2);
    await waitFor(
      'the job is shown running',
      async () => (await query.execute('account-1', jobId))?.status === 'IN_PROGRESS',
    );
    assert.equal(counts.folds, 2, 'one fold, kept again');
  });

  it('folds once for polls that miss together', async () => {
    const { query, counts, queued } = pollingSetup();
    const jobId = await queued();
    const views = await Promise.all(Array.from({ length: 20 }, () => query.execute('account-1', jobId)));
    assert.deepEqual(new Set(views.map((view) => view?.status)), new Set(['IN_QUEUE']));
    assert.equal(counts.folds, 1);
  });

  it('does not hand a poll that follows a change the fold begun before it', async () => {
    const { query, views, counts, folding, queued, start } = pollingSetup();
    const jobId = await queued();
    let release!: () => void;
    folding.held = new Promise((resolve) => (release = resolve));
    const before = query.execute('account-1', jobId);
    await waitFor('the first fold has begun', () => counts.folds === 1);
    await start(jobId);
    views.changed(jobId);
    folding.held = null;
    const after = query.execute('account-1', jobId);
    release();
    assert.equal((await before)?.status, 'IN_QUEUE');
    assert.equal((await after)?.status, 'IN_PROGRESS');
    assert.equal(counts.folds, 2);
  });

  it("keeps a job's view folded while another job changed", async () => {
    const { query, views, counts, queued } = pollingSetup();
    const [polled, other] = [await queued(), await queued()];
    const folded = query.execute('account-1', polled);
    views.changed(other);
    await folded;
    await query.execute('account-1', polled);
    assert.equal(counts.folds, 1);
  });

  it('reads the store while the job streams are not followed, and keeps nothing from before an outage', async () => {
    const { query, counts, following, queued, start } = pollingSetup();
    const jobId = await queued();
    await query.execute('account-1', jobId);
    following.stretch = null;
    // A change made during the outage is never announced to the views.
    await start(jobId);
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
    assert.equal(counts.rowReads, 1, 'the read model is asked first, as before the views');
    following.stretch = 1;
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
    const folds = counts.folds;
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
    assert.equal(counts.folds, folds, 'kept again once followed');
  });

  it('forgets what it kept before an outage that no poll saw', async () => {
    const { query, following, queued, start } = pollingSetup();
    const jobId = await queued();
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_QUEUE');
    // Lost and found again between two polls; the change made meanwhile was never announced.
    await start(jobId);
    following.stretch = 1;
    assert.equal((await query.execute('account-1', jobId))?.status, 'IN_PROGRESS');
  });
});
