import type { SourceFile } from './source-imports.js';

/**
 * Each group of files that import one another round, as one cycle through all of them where one exists, else as
 * the group (Tarjan's strongly connected components, then a walk that stays inside the group).
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const imports = new Map(files.map((file) => [file.path, file.imports]));
  return stronglyConnected(imports)
    .filter((group) => group.length > 1 || (imports.get(group[0]) ?? []).includes(group[0]))
    .map((group) => cycleThrough(group, imports));
}

function stronglyConnected(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === file ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    groups.push(group.sort());
  };
  for (const file of [...imports.keys()].sort()) if (!index.has(file)) visit(file);
  return groups;
}

/** A shortest way from the group's first file back to itself, through the group only. */
function cycleThrough(group: readonly string[], imports: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = group[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const target of imports.get(file) ?? []) {
      if (target === start) return [...pathTo(file, cameFrom, start), start];
      if (!members.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  return [...group];
}

function pathTo(file: string, cameFrom: ReadonlyMap<string, string>, start: string): string[] {
  const way = [file];
  for (let at = file; at !== start; at = cameFrom.get(at) as string) way.unshift(cameFrom.get(at) as string);
  return way;
}
