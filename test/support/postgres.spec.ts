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

describe('test databases within a run of the runner', () => {
  const outer = process.env[TEST_RUN_TAG_VARIABLE];
  const tag = `s${randomBytes(3).toString('hex')}`;
  before(() => {
    process.env[TEST_RUN_TAG_VARIABLE] = tag;
  });
  after(() => {
    if (outer === undefined) delete process.env[TEST_RUN_TAG_VARIABLE];
    else process.env[TEST_RUN_TAG_VARIABLE] = outer;
  });

  it("ends a database's sessions at drop() and leaves it for the run's end, which drops every one of the run's", async () => {
    const first = await createTestDatabase('run_tag');
    const second = await createTestDatabase('run_tag');
    const session = new pg.Client({ connectionString: first.url });
    await session.connect();
    const ended = new Promise<void>((resolve) => session.once('end', resolve));
    session.on('error', () => undefined);
    await first.drop();
    await ended;
    assert.equal(await exists(first.name), true, 'kept until the run ends');
    assert.equal(await dropRunDatabases(tag), 2);
    assert.equal(await exists(first.name), false);
    assert.equal(await exists(second.name), false);
  });
});
