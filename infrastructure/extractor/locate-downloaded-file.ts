import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The file a download produced. yt-dlp prints the final path after merging
 * and audio extraction (`--print after_move:filepath`); the last such line is
 * taken, relative paths against the work directory. Should nothing have been
 * printed, the only `media.*` file left in the work directory is the result.
 * A path outside the work directory is never accepted.
 */
export async function locateDownloadedFile(
  workDir: string,
  printedPaths: readonly string[],
  baseName: string,
): Promise<string | null> {
  const root = path.resolve(workDir);
  const printed = printedPaths.at(-1);
  if (printed !== undefined) {
    const candidate = path.resolve(root, printed);
    const inside = candidate.startsWith(root + path.sep);
    return inside && (await isFile(candidate)) ? candidate : null;
  }
  const leftovers = (await readdir(root)).filter(
    (name) => name.startsWith(`${baseName}.`) && !/\.(part|ytdl|temp|json)$/.test(name) && !/\.f[\w-]+\./.test(name),
  );
  return leftovers.length === 1 ? path.join(root, leftovers[0]) : null;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
