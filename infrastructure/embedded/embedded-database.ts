import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { useBaselineWasmCompiler } from './baseline-wasm-compiler.js';
import { createEmbeddedDatabaseApart } from './create-embedded-database.js';
import { EMBEDDED_START_PARAMS } from './embedded-database-settings.js';

/**
 * The embedded mode's one database: PGlite (PostgreSQL compiled to
 * WebAssembly) in a directory, holding the event store, the read models,
 * the checkpoints and the work queue. It has a single connection, shared
 * through knex's pool of one: a knex transaction holds it to the end, and the
 * event store takes it the same way (see PgliteEventStore), so no statement
 * ever runs inside someone else's transaction.
 */
export interface EmbeddedDatabase {
  pglite: PGlite;
  db: Knex;
  /** Closes the connection and with it the database; close the event store first. */
  close(): Promise<void>;
}

/**
 * Opens (creating it the first time, as a copy of `template` when given) the database in `directory`; in memory when
 * null, for tests.
 */
export async function openEmbeddedDatabase(
  directory: string | null,
  template: string | null = null,
): Promise<EmbeddedDatabase> {
  if (directory !== null) {
    await mkdir(directory, { recursive: true });
    await createEmbeddedDatabaseApart(directory, template);
  }
  useBaselineWasmCompiler();
  const pglite =
    directory === null ? await openInMemory() : await PGlite.create(directory, { startParams: EMBEDDED_START_PARAMS });
  // knex-pglite takes an open instance through a connection function; its typings do not describe that form.
  const db = knex({
    client: ClientPgLite,
    dialect: 'postgres',
    connection: (() => ({ pglite })) as unknown as Knex.StaticConnectionConfig,
  });
  return {
    pglite,
    db,
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** A new database's files as the first in-memory one of this process had them before any use (a 40 MB tarball). */
let newDatabaseImage: Promise<Blob> | null = null;

/** Loads the image of a new database (0.6 s of CPU) rather than run initdb again (2.7 s) for each test's database. */
async function openInMemory(): Promise<PGlite> {
  if (newDatabaseImage !== null)
    return PGlite.create(undefined, { startParams: EMBEDDED_START_PARAMS, loadDataDir: await newDatabaseImage });
  const pglite = await PGlite.create(undefined, { startParams: EMBEDDED_START_PARAMS });
  const image = pglite.dumpDataDir('none');
  newDatabaseImage = image;
  try {
    await image;
  } catch (error) {
    // The next database runs initdb again rather than wait on an image that never came; this one is closed.
    if (newDatabaseImage === image) newDatabaseImage = null;
    await pglite.close();
    throw error;
  }
  return pglite;
}
