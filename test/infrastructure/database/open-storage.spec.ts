import assert from 'node:assert/strict';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { openStorage } from '../../../infrastructure/composition/open-adapters.js';
import type { Storage } from '../../../infrastructure/database/open-storage.js';
import { TEST_POSTGRES_URL, releaseTestDatabase, testDatabaseName } from '../../support/postgres.js';
import { READ_MODEL_SCHEMA } from '../../../infrastructure/features/features.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';

describe('processes starting together on a database that does not exist yet', function () {
  this.timeout(120_000);
  const name = testDatabaseName('concurrent_start');
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;

  after(async () => {
    await releaseTestDatabase(name);
  });

  it("all start: one creates the database, one migrates at a time, and none fails on the other's work", async () => {
    const config = loadConfig({
      DATABASE_URL: url.toString(),
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_POOL_SIZE: '2',
    });
    const starts = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        openStorage(config.storage, config.mode, READ_MODEL_SCHEMA, createLogger('silent')),
      ),
    );
    const opened = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    try {
      const failures = starts.flatMap((start) =>
        start.status === 'rejected' ? [String((start.reason as Error).message)] : [],
      );
      assert.deepEqual(failures, [], 'no start-up failed');
      const [storage] = opened as [Storage];
      const tables = await storage.database.raw(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('download_jobs', 'es_events')`,
      );
      assert.equal(tables.rows[0].n, 2, 'the schema is there');
    } finally {
      await Promise.all(opened.map((storage) => storage.close()));
    }
  });
});
