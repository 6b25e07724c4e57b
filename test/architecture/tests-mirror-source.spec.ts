import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MIRRORED_FOLDERS, misplacedSpecs } from './spec-placement.js';

const ROOT = path.resolve(__dirname, '../../..');

/** The OpenAPI document's specs check the document the features assemble, not one file of `http/openapi/`. */
const OF_THE_ASSEMBLED_DOCUMENT = [/^test\/infrastructure\/http\/openapi\//];

/** Specs of behaviour across files, in a mirrored folder because that is where their subject lives. */
const ACROSS_FILES = [
  // Both lookup parsers of yt-dlp's output (channel listings, client links), read from the same recorded outputs.
  'test/infrastructure/extractor/parse-lookups.spec.ts',
  // A store an earlier release wrote, read back through the database opening, every projection and the audits.
  'test/infrastructure/store-written-before.spec.ts',
  // Every feature's projection over one history: the read models together.
  'test/projections/read-models.spec.ts',
];

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('tests mirror the source tree', () => {
  it('places the spec of a/b/c.ts at test/a/b/c.spec.ts, or in test/a/b/c/ when it has several', () => {
    const specs = MIRRORED_FOLDERS.flatMap((folder) => filesUnder(`test/${folder}`)).filter((file) =>
      file.endsWith('.spec.ts'),
    );
    assert.ok(specs.length > 100, `only ${specs.length} specs were found`);
    const sources = MIRRORED_FOLDERS.flatMap(filesUnder);
    const { misplaced, stale } = misplacedSpecs(specs, sources, {
      patterns: OF_THE_ASSEMBLED_DOCUMENT,
      listed: ACROSS_FILES,
    });
    assert.deepEqual(misplaced, [], 'specs with no source file at their mirrored path');
    assert.deepEqual(stale, [], 'exceptions no spec needs any more');
  });

  it('reports a spec away from its file, and an exception nothing needs', () => {
    const sources = ['application/downloads/cancel-download.ts', 'domain/account/decider.ts', 'infrastructure/a.sh'];
    const specs = [
      'test/application/downloads/cancel-download.spec.ts',
      'test/application/cancel-download.spec.ts',
      'test/domain/account/decider/lookups.spec.ts',
      'test/infrastructure/a.spec.ts',
      'test/end-to-end/anything.spec.ts',
      'test/projections/several.spec.ts',
    ];
    assert.deepEqual(
      misplacedSpecs(specs, sources, { patterns: [/^test\/projections\//], listed: ['test/domain/gone.spec.ts'] }),
      { misplaced: ['test/application/cancel-download.spec.ts'], stale: ['test/domain/gone.spec.ts'] },
    );
  });
});
