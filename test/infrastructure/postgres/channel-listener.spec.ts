import assert from 'node:assert/strict';
import pg from 'pg';
import { SettledJobViews } from '../../../application/downloads/settled-job-views.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import { ChannelListener } from '../../../infrastructure/postgres/channel-listener.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { listeningPorts } from '../../support/tcp-keep-alive.js';

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ChannelListener: a cache fed by its notifications', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let admin: pg.Client;

  before(async () => {
    database = await createTestDatabase('channel_listener');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await database?.drop();
  });

  it('serves nothing from the finished-job cache from a lost connection until it listens again', async () => {
    const views = new SettledJobViews(100);
    // Wired as the API wires the finished-job cache.
    const listener = new ChannelListener(
      database.url,
      'job_view_changes',
      {
        onNotification: (jobId) => views.changed(jobId),
        onListening: () => views.trust(),
        onLost: () => views.distrust(),
      },
      200,
    );
    const view = { jobId: 'job-1', status: 'COMPLETED' } as DownloadJobView;
    const cached = () => views.get('job-1') !== undefined;
    await listener.start();
    try {
      views.remember(view, views.ticket());
      assert.equal(cached(), true, 'trusted while listening');

      const [port] = await listeningPorts(admin, database.name, 'job_view_changes');
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = $1', [port]);
      await until('the cache to stop serving', () => !cached());
      // Whatever is remembered while no connection listens is not served: a change to it could go unheard.
      views.remember(view, views.ticket());
      assert.equal(cached(), false);

      await until(
        'a new LISTEN connection',
        async () => (await listeningPorts(admin, database.name, 'job_view_changes')).length > 0,
      );
      await until('the cache to be trusted again', () => {
        views.remember(view, views.ticket());
        return cached();
      });
      await admin.query(`SELECT pg_notify('job_view_changes', 'job-1')`);
      await until('the change heard on the new connection', () => !cached());
    } finally {
      await listener.close();
    }
  });
});
