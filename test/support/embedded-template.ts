import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One newly created embedded database for every test service of this machine, copied instead of running initdb at
 * each start (EMBEDDED_TEMPLATE_DIR). Named for the PGlite release, whose files it holds.
 */
export function testEmbeddedTemplateDir(): string {
  const pgliteDist = path.dirname(require.resolve('@electric-sql/pglite'));
  const { version } = JSON.parse(readFileSync(path.join(pgliteDist, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return path.join(tmpdir(), `vds-test-embedded-template-${version}`);
}
