import assert from 'node:assert/strict';
import pg from 'pg';
import { type TestService, startTestService } from '../support/test-service.js';

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many sessions of the database hold the lock the worker's background loops run behind. */
async function leaders(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = 'lock worker:background-loops' AND a.datname = current_database()`,
    );
    return Number(rows[0].count);
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
    second = await startTestService({ roles: ['worker'], label: 'background_loops_2', databaseUrl: () => databaseUrl });
    await waitFor(async () => (await leaders(databaseUrl)) === 1, 'one worker leads');

    await first.service.stop();
    await waitFor(async () => (await leaders(databaseUrl)) === 1, 'the other worker leads');
    assert.equal(await leaders(databaseUrl), 1);
  });
});
