import path from 'node:path';
import type { SourceFile as ParsedSource } from 'typescript/unstable/ast';

export type { ParsedSource };

/** The compiler's predicates on syntax nodes (`isArrowFunction`, …). */
export type NodePredicates = typeof import('typescript/unstable/ast/is');

/**
 * Reads each file of the given TypeScript projects whose repository path starts with one of `folders`, as the
 * compiler sees them (so whatever a tsconfig includes is what is checked), once, through `read`. Paths are relative to
 * `root`, with `/` separators. The parsed files live only as long as the compiler does, so `read` must take what it
 * needs from them before returning.
 */
export async function readSourceFiles<T>(
  root: string,
  projects: readonly string[],
  folders: readonly string[],
  read: (relativePath: string, source: ParsedSource, is: NodePredicates) => T,
): Promise<T[]> {
  // The compiler's programmatic API ships as ES modules beside its native build.
  const { API } = await import('typescript/unstable/sync');
  const is = await import('typescript/unstable/ast/is');
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProjects: projects.map((project) => path.join(root, project)) });
    const results = new Map<string, T>();
    for (const project of snapshot.getProjects()) {
      for (const fileName of project.program.getSourceFileNames()) {
        const relative = path.relative(root, fileName).split(path.sep).join('/');
        if (!folders.some((folder) => relative.startsWith(`${folder}/`)) || results.has(relative)) continue;
        const source = project.program.getSourceFile(fileName);
        if (source !== undefined) results.set(relative, read(relative, source, is));
      }
    }
    return [...results.values()];
  } finally {
    api.close();
  }
}
