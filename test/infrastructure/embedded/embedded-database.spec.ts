import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedDatabaseApart } from '../../../infrastructure/embedded/create-embedded-database.js';
import { openEmbeddedDatabase } from '../../../infrastructure/embedded/embedded-database.js';

describe('embedded database: bounded memory', function () {
  // Creating a PGlite database runs initdb in WebAssembly: seconds, more on a busy machine.
  this.timeout(180_000);
  let directory: string;
  before(async () => {
    directory = path.join(await mkdtemp(path.join(tmpdir(), 'embedded-memory-')), 'pgdata');
  });
  after(async () => rm(path.dirname(directory), { recursive: true, force: true }));

  it('creates a new database in a child process, which opens here with what was written', async () => {
    await createEmbeddedDatabaseApart(directory);
    assert.ok(existsSync(path.join(directory, 'PG_VERSION')), 'the database exists before this process opens it');
    const first = await openEmbeddedDatabase(directory);
    await first.db.raw('CREATE TABLE kept (id integer)');
    await first.db('kept').insert({ id: 7 });
    await first.close();
    const second = await openEmbeddedDatabase(directory);
    try {
      assert.deepEqual(await second.db('kept').select('id'), [{ id: 7 }]);
    } finally {
      await second.close();
    }
  });

  it("runs with small buffers and work memory instead of a server's defaults", async () => {
    const database = await openEmbeddedDatabase(directory);
    try {
      const setting = async (name: string) =>
        ((await database.db.raw(`SHOW ${name}`)) as { rows: Array<Record<string, string>> }).rows[0][name];
      assert.equal(await setting('shared_buffers'), '8MB');
      assert.equal(await setting('work_mem'), '2MB');
      assert.equal(await setting('maintenance_work_mem'), '8MB');
    } finally {
      await database.close();
    }
  });
});
