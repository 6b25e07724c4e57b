import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { useBaselineWasmCompiler } from './baseline-wasm-compiler.js';
import { EMBEDDED_START_PARAMS } from './embedded-database-settings.js';
import { fillDirectoryInPlace } from './fill-directory-in-place.js';

/**
 * Creates the database in `directory` when it has none yet, in a child
 * process of its own: creation runs initdb in WebAssembly, whose memory
 * (several hundred MB) the service would otherwise keep resident for as long
 * as it runs. The child is gone, and its memory with it, before the service
 * opens the database. With a `template` directory, the database is a copy of
 * the one kept there (created there first if it holds none): a file copy
 * instead of initdb's seconds of CPU.
 */
export async function createEmbeddedDatabaseApart(directory: string, template: string | null = null): Promise<void> {
  if (holdsDatabase(directory)) return;
  if (template === null) return completeInPlace(directory, runCreation);
  if (!holdsDatabase(template)) await completeInPlace(template, runCreation);
  // cp(1) copies the thousand small files of a cluster ten times faster than node's fs.cp.
  await completeInPlace(
    directory,
    async (partial) => void (await promisify(execFile)('cp', ['-R', template, partial])),
  );
}

function holdsDatabase(directory: string): boolean {
  return existsSync(path.join(directory, 'PG_VERSION'));
}

async function runCreation(directory: string): Promise<void> {
  await promisify(execFile)(process.execPath, [__filename, directory]);
}

function completeInPlace(directory: string, fill: (partial: string) => Promise<void>): Promise<void> {
  return fillDirectoryInPlace(directory, fill, holdsDatabase);
}

if (require.main === module) {
  useBaselineWasmCompiler();
  PGlite.create(process.argv[2], { startParams: EMBEDDED_START_PARAMS })
    .then((pglite) => pglite.close())
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
