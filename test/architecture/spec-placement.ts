/** The source folders whose specs mirror them under test/. */
export const MIRRORED_FOLDERS = ['domain', 'application', 'infrastructure', 'projections'];

export interface PlacementExceptions {
  /** Spec paths that may sit anywhere for now, each pattern with its reason beside it. */
  patterns: readonly RegExp[];
  /** Spec paths whose name is no file (they cover several), by path. */
  listed: readonly string[];
}

/** Path without its last extension (`a/b.spec.ts` → `a/b.spec`); folders keep their name. */
const stem = (file: string) => file.replace(/\.[^./]+$/, '');

/**
 * A spec of `a/b/c.ts` sits at `test/a/b/c.spec.ts`; a file with several specs, one per behaviour, has them in a folder
 * named for it (`test/a/b/c/<behaviour>.spec.ts`). The source file may be of any kind (`.ts`, `.sh`, `.py`). Returns
 * the specs under a mirrored folder that follow neither form, and the exceptions that no spec needs any more.
 */
export function misplacedSpecs(
  specs: readonly string[],
  sourceFiles: Iterable<string>,
  exceptions: PlacementExceptions,
): { misplaced: string[]; stale: string[] } {
  const sources = new Set([...sourceFiles].map(stem));
  const allowances = [
    ...exceptions.patterns.map((pattern) => ({ name: String(pattern), allows: (spec: string) => pattern.test(spec) })),
    ...exceptions.listed.map((listed) => ({ name: listed, allows: (spec: string) => spec === listed })),
  ];
  const used = new Set<string>();
  const misplaced = specs.filter((spec) => {
    const mirrored = spec.replace(/^test\//, '').replace(/\.spec\.ts$/, '');
    if (!MIRRORED_FOLDERS.some((folder) => mirrored.startsWith(`${folder}/`))) return false;
    if (sources.has(mirrored) || sources.has(mirrored.slice(0, mirrored.lastIndexOf('/')))) return false;
    const allowance = allowances.find((candidate) => candidate.allows(spec));
    if (allowance === undefined) return true;
    used.add(allowance.name);
    return false;
  });
  return { misplaced, stale: allowances.map(({ name }) => name).filter((name) => !used.has(name)) };
}
