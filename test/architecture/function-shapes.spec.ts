import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { functionsOf } from './function-shapes.js';
import { readSourceFiles } from './source-files.js';

const SOURCE = `/** A doc comment, not counted. */
export function declared(a: number): number {
  return a;
}

export class Widget {
  constructor(a: number, b: number, c: number, d: number, e: number, f: number) {}

  get size(): number {
    return 1;
  }

  run(): number[] {
    return [1, 2].map((value) =>
      value * 2,
    );
  }
}

export const arrow = (): void => {};

export const table = {
  entry: function (): void {},
};
`;

describe('the functions of a made-up source file, as the compiler parses it', () => {
  let root: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'function-shapes-'));
    await writeFile(path.join(root, 'tsconfig.json'), JSON.stringify({ include: ['src'] }));
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'widget.ts'), SOURCE);
  });

  after(() => rm(root, { recursive: true, force: true }));

  it('names each function, counts its lines from its first token to its last, and its parameters', async () => {
    const [functions] = await readSourceFiles(root, ['tsconfig.json'], ['src'], functionsOf);
    const shapes = functions.map(({ name, lines, parameters, isConstructor }) => ({
      name,
      lines,
      parameters,
      isConstructor,
    }));
    assert.deepEqual(shapes, [
      { name: 'declared', lines: 3, parameters: 1, isConstructor: false },
      { name: 'Widget.constructor', lines: 1, parameters: 6, isConstructor: true },
      { name: 'Widget.size', lines: 3, parameters: 0, isConstructor: false },
      { name: 'Widget.run', lines: 5, parameters: 0, isConstructor: false },
      { name: 'Widget.run (callback)', lines: 2, parameters: 1, isConstructor: false },
      { name: 'arrow', lines: 1, parameters: 0, isConstructor: false },
      { name: 'entry', lines: 1, parameters: 0, isConstructor: false },
    ]);
  });
});
