import assert from 'node:assert/strict';
import path from 'node:path';
import { importCycles } from './import-cycles.js';
import { importsOfLaterLayers, infrastructureTier, upwardInfrastructureImports } from './layer-rules.js';
import { readSourceImports, type SourceFile } from './source-imports.js';

const ROOT = path.resolve(__dirname, '../../..');

/** Each layer may import only from itself and the layers before it. */
const LAYERS = ['domain', 'application', 'projections', 'infrastructure'];

/**
 * The folders of `infrastructure/`, lowest first: a folder may import from its own tier and lower ones. Adapters come
 * first, then the composition (typed tokens and container), the features that register on it, the composition root
 * that collects the features, the roles that start them, the admin commands, the files directly in `infrastructure/`
 * (`*.ts`: the service) and last the command-line entry points.
 */
const INFRASTRUCTURE_ORDER = [
  ['system', 'security', 'media', 'config'],
  ['files', 'egress', 'postgres', 'processing', 'snapshots', 'rate-limits', 'live'],
  ['event-store', 'observability'],
  ['http', 'extractor', 'work-queue', 'nats'],
  ['webhooks'],
  ['embedded'],
  ['database'],
  ['retention'],
  ['composition'],
  ['features'],
  ['composition/create-container.ts'],
  ['roles'],
  ['admin'],
  ['*.ts'],
  ['cli'],
];

const MAX_UPWARD_INFRASTRUCTURE_IMPORTS = 2;
const MAX_FILE_LINES = 400;

const list = (lines: readonly string[]) => lines.map((line) => `\n  ${line}`).join('');

describe('architecture of the source (domain, application, projections, infrastructure, console)', () => {
  let files: SourceFile[];

  before(async () => {
    files = await readSourceImports(ROOT, ['tsconfig.json', 'console/tsconfig.json'], [...LAYERS, 'console/src']);
    assert.ok(files.length > 100, `only ${files.length} source files were found`);
  });

  it('has no import cycles, type-only imports included', () => {
    const cycles = importCycles(files).map((cycle) => cycle.join(' -> '));
    assert.deepEqual(cycles, [], `import cycles:${list(cycles)}`);
  });

  it('imports only from its own layer and the layers before it', () => {
    const server = files.filter((file) => !file.path.startsWith('console/'));
    const offences = importsOfLaterLayers(server, LAYERS);
    assert.deepEqual(offences, [], `imports of a later layer (order: ${LAYERS.join(', ')}):${list(offences)}`);
  });

  it('places every folder of infrastructure/ in the declared order', () => {
    const unplaced = [...new Set(files.map((file) => file.path).filter((file) => file.startsWith('infrastructure/')))]
      .filter((file) => infrastructureTier(file, INFRASTRUCTURE_ORDER) === null)
      .map((file) => file.split('/').slice(0, 2).join('/'));
    assert.deepEqual([...new Set(unplaced)], [], 'folders missing from INFRASTRUCTURE_ORDER in this spec');
  });

  it(`has at most ${MAX_UPWARD_INFRASTRUCTURE_IMPORTS} imports from a higher tier inside infrastructure/`, () => {
    const upward = upwardInfrastructureImports(files, INFRASTRUCTURE_ORDER);
    assert.ok(upward.length <= MAX_UPWARD_INFRASTRUCTURE_IMPORTS, `${upward.length} upward imports:${list(upward)}`);
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .filter((file) => file.lines > MAX_FILE_LINES)
      .map((file) => `${file.path} (${file.lines} lines)`);
    assert.deepEqual(long, [], `files over ${MAX_FILE_LINES} lines:${list(long)}`);
  });
});
