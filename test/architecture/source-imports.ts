import path from 'node:path';

/** A source file and the source files it imports, type-only imports and re-exports included. */
export interface SourceFile {
  readonly path: string;
  readonly lines: number;
  readonly imports: readonly string[];
}

/**
 * The files of the given TypeScript projects whose repository path starts with one of `folders`, as the compiler
 * sees them (so whatever a tsconfig includes is what is checked). Paths are relative to `root`, with `/` separators.
 */
export async function readSourceImports(
  root: string,
  projects: readonly string[],
  folders: readonly string[],
): Promise<SourceFile[]> {
  // The compiler's programmatic API ships as an ES module beside its native build.
  const { API } = await import('typescript/unstable/sync');
  const { isStringLiteralLikeNode } = await import('typescript/unstable/ast/is');
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProjects: projects.map((project) => path.join(root, project)) });
    const files = new Map<string, SourceFile>();
    for (const project of snapshot.getProjects()) {
      for (const fileName of project.program.getSourceFileNames()) {
        const relative = path.relative(root, fileName).split(path.sep).join('/');
        if (!folders.some((folder) => relative.startsWith(`${folder}/`)) || files.has(relative)) continue;
        const source = project.program.getSourceFile(fileName);
        if (source === undefined) continue;
        const imports = source.imports
          .filter(isStringLiteralLikeNode)
          .map((specifier) => resolveRelative(relative, specifier.text));
        files.set(relative, {
          path: relative,
          lines: lineCount(source.text),
          imports: imports.filter((target) => target !== null),
        });
      }
    }
    const known = new Set(files.keys());
    return [...files.values()].map((file) => ({
      ...file,
      imports: file.imports.filter((target) => known.has(target)),
    }));
  } finally {
    api.close();
  }
}

/** The source path a relative specifier names (`./x.js` is written for `./x.ts`); packages are not source files. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.posix.join(path.posix.dirname(from), specifier.replace(/\.js$/, '.ts'));
}

/** Lines as an editor numbers them: a final newline does not start another. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
