import assert from 'node:assert/strict';
import { checkLimit } from './function-limits.js';
import type { FunctionShape } from './function-shapes.js';
import { importCycles } from './import-cycles.js';
import { importsOfLaterLayers, upwardInfrastructureImports } from './layer-rules.js';
import type { SourceFile } from './source-imports.js';

const file = (path: string, ...imports: string[]): SourceFile => ({ path, lines: 1, imports });
const fn = (path: string, name: string, lines: number, parameters = 0): FunctionShape => ({
  path,
  name,
  lines,
  parameters,
  isConstructor: name.endsWith('.constructor'),
});

describe('architecture rules on a made-up import graph', () => {
  it('names each cycle once, through its files in import order', () => {
    const files = [
      file('a.ts', 'b.ts'),
      file('b.ts', 'c.ts', 'd.ts'),
      file('c.ts', 'a.ts'),
      file('d.ts'),
      file('e.ts', 'e.ts'),
      file('f.ts', 'd.ts'),
    ];
    assert.deepEqual(importCycles(files), [
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
    assert.deepEqual(importCycles([file('a.ts', 'b.ts'), file('b.ts')]), []);
  });

  it('finds imports of a later layer and nothing else', () => {
    const files = [
      file('domain/x.ts', 'domain/y.ts', 'application/p.ts'),
      file('application/p.ts', 'domain/x.ts'),
      file('infrastructure/q.ts', 'projections/r.ts', 'application/p.ts'),
      file('projections/r.ts', 'infrastructure/q.ts'),
    ];
    assert.deepEqual(importsOfLaterLayers(files, ['domain', 'application', 'projections', 'infrastructure']), [
      'domain/x.ts -> application/p.ts',
      'projections/r.ts -> infrastructure/q.ts',
    ]);
  });

  it('counts imports from a higher tier of infrastructure/, with its top-level files as the tier named *.ts', () => {
    const order = [['config'], ['files', 'http'], ['*.ts'], ['cli']];
    const files = [
      file('infrastructure/config/config.ts', 'infrastructure/files/store.ts'),
      file('infrastructure/files/store.ts', 'infrastructure/config/config.ts', 'infrastructure/http/app.ts'),
      file('infrastructure/http/app.ts', 'infrastructure/service.ts', 'application/p.ts'),
      file('infrastructure/service.ts', 'infrastructure/cli/run.ts', 'infrastructure/http/app.ts'),
      file('infrastructure/cli/run.ts', 'infrastructure/service.ts'),
    ];
    assert.deepEqual(upwardInfrastructureImports(files, order), [
      'infrastructure/config/config.ts -> infrastructure/files/store.ts',
      'infrastructure/http/app.ts -> infrastructure/service.ts',
      'infrastructure/service.ts -> infrastructure/cli/run.ts',
    ]);
  });

  it('places a file the order names on its own tier, apart from the rest of its folder', () => {
    const order = [['kit'], ['parts'], ['kit/root.ts']];
    const files = [
      file('infrastructure/parts/part.ts', 'infrastructure/kit/token.ts'),
      file('infrastructure/kit/root.ts', 'infrastructure/parts/part.ts', 'infrastructure/kit/token.ts'),
      file('infrastructure/kit/token.ts', 'infrastructure/kit/root.ts'),
    ];
    assert.deepEqual(upwardInfrastructureImports(files, order), [
      'infrastructure/kit/token.ts -> infrastructure/kit/root.ts',
    ]);
  });

  it('finds functions over a limit, and entries let through that are no longer over it', () => {
    const functions = [
      fn('a.ts', 'long', 61),
      fn('a.ts', 'exact', 60),
      fn('b.ts', 'A.run', 90),
      fn('b.ts', 'A.fixed', 20),
      fn('c.ts', 'C.constructor', 80, 6),
    ];
    const lines = checkLimit(functions, {
      measure: (shape) => shape.lines,
      max: 60,
      allowed: ['b.ts A.run', 'b.ts A.fixed', 'gone.ts f'],
    });
    assert.deepEqual(lines, {
      over: ['a.ts long (61)', 'c.ts C.constructor (80)'],
      stale: ['b.ts A.fixed', 'gone.ts f'],
    });
    const width = checkLimit(functions, {
      measure: (shape) => (shape.isConstructor ? shape.parameters : null),
      max: 5,
      allowed: [],
    });
    assert.deepEqual(width, { over: ['c.ts C.constructor (6)'], stale: [] });
  });
});
