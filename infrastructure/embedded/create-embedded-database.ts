import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { useBaselineWasmCompiler } from './baseline-wasm-compiler.js';
import { EMBEDDED_START_PARAMS } from './embedded-database-settings.js';

/**
 * Creates the database in `directory` when it has none yet, in a child
 * process of its own: creation runs initdb in WebAssembly, whose memory
 * (several hundred MB) the service would otherwise keep resident for as long
 * as it runs. The child is gone, and its memory with it, before the service
 * opens the database.
 */
export async function createEmbeddedDatabaseApart(directory: string): Promise<void> {
  if (existsSync(path.join(directory, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, [__filename, directory]);
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
