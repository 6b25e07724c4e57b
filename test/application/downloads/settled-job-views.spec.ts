import assert from 'node:assert/strict';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import type { DownloadJobCommandHandler } from '../../../application/downloads/download-job-commands.js';
import { GetDownloadJob } from '../../../application/downloads/get-download-job.js';
import { SettledJobViews } from '../../../application/downloads/settled-job-views.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import { completedJobView } from '../../support/completed-job-view.js';

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
    const job = completedJobView();
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
    const job = completedJobView();
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
    const finished = completedJobView();
    const { rows, readModel } = rowOf(finished);
    const views = new SettledJobViews(100);
    views.trust();
    const query = new GetDownloadJob(readModel, noStream, settledCharges(settled), views);
    assert.equal((await query.execute('account-1', finished.jobId))?.status, 'IN_PROGRESS');
    assert.equal((await query.execute('account-1', finished.jobId))?.status, 'IN_PROGRESS');
    assert.equal(rows.reads, 2);

    rows.current = completedJobView({ jobId: finished.jobId, status: 'IN_PROGRESS', completedAt: null, fileKey: null });
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
    const job = completedJobView();
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
    const [a, b, c] = [completedJobView(), completedJobView(), completedJobView()];
    views.remember(a, views.ticket());
    views.remember(b, views.ticket());
    assert.ok(views.get(a.jobId));
    views.remember(c, views.ticket());
    assert.ok(views.get(a.jobId));
    assert.equal(views.get(b.jobId), undefined);
    assert.ok(views.get(c.jobId));
  });
});
