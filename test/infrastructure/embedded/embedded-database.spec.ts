import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
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

  it('copies a template, which the first creations make together, leaving nothing half made', async () => {
    const root = path.dirname(directory);
    const template = path.join(root, 'template');
    const copies = ['a', 'b'].map((name) => path.join(root, name, 'pgdata'));
    for (const copy of copies) await mkdir(copy, { recursive: true });
    await Promise.all(copies.map((copy) => createEmbeddedDatabaseApart(copy, template)));
    for (const made of [template, ...copies]) assert.ok(existsSync(path.join(made, 'PG_VERSION')), made);
    // What the template holds from now on is in the next copy: a copy, not initdb.
    const kept = await openEmbeddedDatabase(template);
    await kept.db.raw('CREATE TABLE from_template (id integer)');
    await kept.close();
    const copy = path.join(root, 'c', 'pgdata');
    await createEmbeddedDatabaseApart(copy, template);
    const opened = await openEmbeddedDatabase(copy);
    try {
      assert.deepEqual(await opened.db('from_template').select('id'), []);
    } finally {
      await opened.close();
    }
    const left = [...(await readdir(root)), ...(await readdir(path.join(root, 'a')))];
    assert.deepEqual(
      left.filter((name) => name.includes('partial')),
      [],
    );
  });

  it('gives each in-memory database a new database, none of what an earlier one holds', async () => {
    const first = await openEmbeddedDatabase(null);
    await first.db.raw('CREATE TABLE kept (id integer)');
    const second = await openEmbeddedDatabase(null);
    try {
      const tables = await second.db.raw("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'kept'");
      assert.equal((tables as { rows: Array<{ n: number }> }).rows[0].n, 0);
      await second.db.raw('CREATE TABLE kept (id integer)');
      await second.db('kept').insert({ id: 2 });
      assert.deepEqual(await first.db('kept').select('id'), [], 'each its own');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
