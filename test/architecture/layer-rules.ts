import type { SourceFile } from './source-imports.js';

/** An import that runs against the declared order, as `importer -> imported`. */
export type Offence = string;

/** Imports from a layer that comes later in `layers`, which must list every top-level folder checked. */
export function importsOfLaterLayers(files: readonly SourceFile[], layers: readonly string[]): Offence[] {
  const rank = (file: string) => layers.indexOf(file.split('/')[0]);
  return offences(files, (from, to) => rank(to) > rank(from));
}

/**
 * Where a file of `infrastructure/` stands in `order` (lowest first): the tier that names the file itself (as
 * `folder/file.ts`), else its folder's tier, or for a file directly in `infrastructure/` the tier named `*.ts`. Null
 * when the order does not place it.
 */
export function infrastructureTier(file: string, order: readonly (readonly string[])[]): number | null {
  const [, part, rest] = file.split('/', 3);
  const own = order.findIndex((names) => names.includes(`${part}/${rest}`));
  if (own !== -1) return own;
  const name = rest === undefined ? '*.ts' : part;
  const tier = order.findIndex((names) => names.includes(name));
  return tier === -1 ? null : tier;
}

/** Imports inside `infrastructure/` from a higher tier of `order`. */
export function upwardInfrastructureImports(
  files: readonly SourceFile[],
  order: readonly (readonly string[])[],
): Offence[] {
  const inside = files.filter((file) => file.path.startsWith('infrastructure/'));
  const tier = (file: string) => infrastructureTier(file, order) ?? -1;
  return offences(inside, (from, to) => to.startsWith('infrastructure/') && tier(to) > tier(from));
}

function offences(files: readonly SourceFile[], against: (from: string, to: string) => boolean): Offence[] {
  return files.flatMap((file) =>
    file.imports.filter((target) => against(file.path, target)).map((target) => `${file.path} -> ${target}`),
  );
}
