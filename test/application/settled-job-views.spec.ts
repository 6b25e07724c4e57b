import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ChargeVisibility } from '../../application/accounts/charge-visibility.js';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import { GetDownloadJob } from '../../application/downloads/get-download-job.js';
import { SettledJobViews } from '../../application/downloads/settled-job-views.js';
import type { DownloadJobView } from '../../application/ports/read-models.js';

function view(overrides: Partial<DownloadJobView> = {}): DownloadJobView {
  return {
    jobId: randomUUID(),
    accountId: 'account-1',
    status: 'COMPLETED',
    url: 'https://video.example/watch?v=1',
    format: 'audio',
    language: null,
    title: 'A title',
    duration: 12,
    webhookUrl: null,
    actualFormat: 'audio',
    fileKey: 'account-1/job.1.m4a',
    fileSize: 1000,
    fileExtension: 'm4a',
    errorCode: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    startedAt: '2026-11-25T10:00:01.000Z',
    completedAt: '2026-11-25T10:00:02.000Z',
    ...overrides,
  };
}

/** A read model of one row that counts its reads, and whose row the test can change behind the cache's back. */
function rowOf(initial: DownloadJobView) {
  const rows = { current: initial, reads: 0 };
  return {
    rows,
    readModel: {
      list: async () => [],
      get: async (jobId: string) => {
        rows.reads += 1;
        return rows.current.jobId === jobId ? rows.current : null;
      },
    },
  };
}

const noStream = {} as DownloadJobCommandHandler;
const settledCharges = (settled: { value: boolean }) =>
  new ChargeVisibility({
    waitForRevision: async () => true,
    settledAmong: async (_accountId, ids) => new Set(settled.value ? ids : []),
  });

describe("application: finished jobs' views kept in memory", () => {
  it('answers a settled finished job without reading its row again, and keeps it from other accounts', async () => {
    const job = view();
    const { rows, readModel } = rowOf(job);
    const views = new SettledJobViews(100);
    views.trust();
    const query = new GetDownloadJob(readModel, noStream, settledCharges({ value: true }), views);
    assert.equal((await query.execute('account-1', job.jobId))?.status, 'COMPLETED');
    rows.current = { ...job, title: 'changed behind its back' };
    assert.equal((await query.execute('account-1', job.jobId))?.title, 'A title');
    assert.equal(await query.execute('account-2', job.jobId), null);
    assert.equal(rows.reads, 1);
  });

  it('reads the row again once a change of the job is announced', async () => {
    const job = view();
    const { rows, readModel } = rowOf(job);
    const views = new SettledJobViews(100);
    views.trust();
    const query = new GetDownloadJob(readModel, noStream, settledCharges({ value: true }), views);
    await query.execute('account-1', job.jobId);
    rows.current = { ...job, title: 'changed' };
    views.changed(job.jobId);
    assert.equal((await query.execute('account-1', job.jobId))?.title, 'changed');
    rows.current = { ...job, title: 'changed again' };
    views.changed('*');
    assert.equal((await query.execute('account-1', job.jobId))?.title, 'changed again');
  });

  it('keeps nothing before the charge is visible, for jobs under way, or while changes may be missed', async () => {
    const settled = { value: false };
    const finished = view();
    const { rows, readModel } = rowOf(finished);
    const views = new SettledJobViews(100);
    views.trust();
    const query = new GetDownloadJob(readModel, noStream, settledCharges(settled), views);
    assert.equal((await query.execute('account-1', finished.jobId))?.status, 'IN_PROGRESS');
    assert.equal((await query.execute('account-1', finished.jobId))?.status, 'IN_PROGRESS');
    assert.equal(rows.reads, 2);

    rows.current = view({ jobId: finished.jobId, status: 'IN_PROGRESS', completedAt: null, fileKey: null });
    await query.execute('account-1', finished.jobId);
    await query.execute('account-1', finished.jobId);
    assert.equal(rows.reads, 4);

    settled.value = true;
    rows.current = finished;
    views.distrust();
    await query.execute('account-1', finished.jobId);
    await query.execute('account-1', finished.jobId);
    assert.equal(rows.reads, 6);
  });

  it('does not keep a view read while a change was announced', async () => {
    const job = view();
    let views: SettledJobViews;
    const rows = { reads: 0 };
    const readModel = {
      list: async () => [],
      get: async () => {
        rows.reads += 1;
        views.changed(job.jobId);
        return job;
      },
    };
    views = new SettledJobViews(100);
    views.trust();
    const query = new GetDownloadJob(readModel, noStream, settledCharges({ value: true }), views);
    await query.execute('account-1', job.jobId);
    await query.execute('account-1', job.jobId);
    assert.equal(rows.reads, 2);
  });

  it('holds at most its bound, forgetting the least recently polled job first', () => {
    const views = new SettledJobViews(2);
    views.trust();
    const [a, b, c] = [view(), view(), view()];
    views.remember(a, views.ticket());
    views.remember(b, views.ticket());
    assert.ok(views.get(a.jobId));
    views.remember(c, views.ticket());
    assert.ok(views.get(a.jobId));
    assert.equal(views.get(b.jobId), undefined);
    assert.ok(views.get(c.jobId));
  });
});
