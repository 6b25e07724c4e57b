import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server tests create their throwaway databases on. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * Set by `npm test`'s runner (run-spec-files.ts), which drops the run's databases once it ends. PostgreSQL
 * checkpoints at every DROP DATABASE, writing every dirty page of the server, and the first change of each page
 * after a checkpoint writes the whole page to the WAL again: one drop per spec file made about 200 checkpoints a run.
 */
export const TEST_RUN_TAG_VARIABLE = 'TEST_RUN_TAG';

/** The names of a run's databases begin with this. */
export function runDatabasePrefix(tag: string): string {
  return `vds_test_${tag}_`;
}

/** A new test database's name: the run's prefix within a run of the runner. */
export function testDatabaseName(label: string): string {
  const tag = process.env[TEST_RUN_TAG_VARIABLE];
  const prefix = tag === undefined ? 'vds_test_' : runDatabasePrefix(tag);
  return `${prefix}${label
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase()
    .slice(0, 36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Done with a test database: within a run of the runner its sessions are ended, as WITH (FORCE) would, and the
 * database is left to the run's end; otherwise it is dropped. A DROP DATABASE holds a transaction id while it waits
 * for its checkpoint, and every event store reader of the server waits behind it: after a long stretch without
 * checkpoints, the readers of every spec running stalled for seconds.
 */
export async function releaseTestDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    if (
      process.env[TEST_RUN_TAG_VARIABLE] !== undefined &&
      name.startsWith(runDatabasePrefix(process.env[TEST_RUN_TAG_VARIABLE]))
    )
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    else await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database per suite, so suites never see each other's rows
 * and can run while other suites truncate theirs.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = testDatabaseName(label);
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => releaseTestDatabase(name) };
}

/**
 * Drops every database of the run tagged `tag`, eight at a time: each drop waits for a checkpoint of its own, which
 * after the first has little left to write (about 50 ms a database, 8 at a time, on a quiet 2-core machine).
 */
export async function dropRunDatabases(tag: string): Promise<number> {
  const lister = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await lister.connect();
  let names: string[];
  try {
    const { rows } = await lister.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [runDatabasePrefix(tag)],
    );
    names = rows.map((row) => row.datname);
  } finally {
    await lister.end();
  }
  const left = [...names];
  const dropSome = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      for (let name = left.pop(); name !== undefined; name = left.pop())
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: 8 }, dropSome));
  const check = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await check.connect();
  try {
    const { rows } = await check.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      runDatabasePrefix(tag),
    ]);
    if (rows.length > 0) throw new Error(`Test databases left behind: ${rows.map((row) => row.datname).join(', ')}`);
  } finally {
    await check.end();
  }
  return names.length;
}
