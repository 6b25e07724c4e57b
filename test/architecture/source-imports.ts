import path from 'node:path';
import type { NodePredicates, ParsedSource } from './source-files.js';

/** A source file and the source files it imports, type-only imports and re-exports included. */
export interface SourceFile {
  readonly path: string;
  readonly lines: number;
  readonly imports: readonly string[];
}

/** A parsed file's length and the source paths its relative imports name (whether or not they were read). */
export function importsOf(relativePath: string, source: ParsedSource, is: NodePredicates): SourceFile {
  return {
    path: relativePath,
    lines: lineCount(source.text),
    imports: source.imports
      .filter(is.isStringLiteralLikeNode)
      .map((specifier) => resolveRelative(relativePath, specifier.text))
      .filter((target) => target !== null),
  };
}

/** The files with only their imports of one another: what lies outside the files read is not judged. */
export function importsAmong(files: readonly SourceFile[]): SourceFile[] {
  const known = new Set(files.map((file) => file.path));
  return files.map((file) => ({ ...file, imports: file.imports.filter((target) => known.has(target)) }));
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
