import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEST_POSTGRES_URL, TEST_RUN_TAG_VARIABLE, createTestDatabase, dropRunDatabases } from './postgres.js';

async function exists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length === 1;
  } finally {
    await client.end();
  }
}

/**
 * Within the runner's run, the databases are the run's, and its end drops them and fails if one is left: a drop here
 * would hold a transaction id through a checkpoint of the whole run's pages, and every spec's event store readers
 * with it. Run alone (no runner), the spec tags its own and drops them itself.
 */
describe('test databases within a run of the runner', () => {
  const outer = process.env[TEST_RUN_TAG_VARIABLE];
  const tag = outer ?? `s${randomBytes(3).toString('hex')}`;
  before(() => {
    process.env[TEST_RUN_TAG_VARIABLE] = tag;
  });
  after(async () => {
    if (outer !== undefined) return;
    delete process.env[TEST_RUN_TAG_VARIABLE];
    await dropRunDatabases(tag);
  });

  it("ends a database's sessions at drop() and leaves the database for the run's end", async () => {
    const database = await createTestDatabase('run_tag');
    assert.ok(database.name.includes(`_${tag}_`), database.name);
    const session = new pg.Client({ connectionString: database.url });
    await session.connect();
    const ended = new Promise<void>((resolve) => session.once('end', resolve));
    session.on('error', () => undefined);
    await database.drop();
    await ended;
    assert.equal(await exists(database.name), true, 'kept until the run ends');
  });

  it('drops every database of a run at its end, and none of another run', async function () {
    // A drop waits for a checkpoint of every dirty page: only where no other spec's readers wait behind it.
    if (outer !== undefined) this.skip();
    const mine = await createTestDatabase('run_tag');
    const other = `vds_test_o${randomBytes(3).toString('hex')}_kept`;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${other}`);
      assert.ok((await dropRunDatabases(tag)) >= 1);
      assert.equal(await exists(mine.name), false);
      assert.equal(await exists(other), true, "another run's database is left alone");
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${other}`);
      await admin.end();
    }
  });
});
