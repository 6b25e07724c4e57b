import assert from 'node:assert/strict';
import pg from 'pg';
import { advisoryLockHolders } from '../../support/advisory-lock-holders.js';
import { type TestService, startTestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

/** The backend pids of the sessions holding the lock the worker's background loops run behind. */
const leaders = (databaseUrl: string) => advisoryLockHolders(databaseUrl, 'worker:background-loops');

/** Whether a backend of that pid is still connected. */
async function connected(databaseUrl: string, pid: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

describe('the worker role’s background loops (dead letters, reconcilers) in a deployment of several workers', function () {
  this.timeout(180_000);
  let first: TestService | null = null;
  let second: TestService | null = null;

  afterEach(async () => {
    await second?.stop();
    await first?.stop();
    first = second = null;
  });

  it('run in one worker process per database, and move to another when it stops', async () => {
    first = await startTestService({ roles: ['worker'], label: 'background_loops' });
    const databaseUrl = first.database?.url as string;
    // The first worker, alone, leads: its session is the one holding the lock.
    await waitFor('the first worker leads', async () => (await leaders(databaseUrl)).length === 1);
    const [firstLeader] = await leaders(databaseUrl);
    second = await startTestService({ roles: ['worker'], label: 'background_loops_2', databaseUrl: () => databaseUrl });
    assert.deepEqual(await leaders(databaseUrl), [firstLeader], 'the second worker does not lead beside it');

    await first.service.stop();
    await waitFor('another session, the second worker’s, leads', async () => {
      const now = await leaders(databaseUrl);
      return now.length === 1 && now[0] !== firstLeader;
    });
    assert.equal(await connected(databaseUrl, firstLeader), false, 'the stopped worker holds no session');
  });
});
