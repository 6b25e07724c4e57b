import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Fills a sibling of `directory` and renames it into place (over an empty directory, never a full one), so a process
 * that dies half way leaves no directory that looks complete. Another process that filled it first wins (`isComplete`
 * tells): the copy made here is dropped.
 */
export async function fillDirectoryInPlace(
  directory: string,
  fill: (partial: string) => Promise<void>,
  isComplete: (directory: string) => boolean,
): Promise<void> {
  const partial = `${directory}.partial-${randomBytes(6).toString('hex')}`;
  await mkdir(path.dirname(directory), { recursive: true });
  try {
    await fill(partial);
    await rename(partial, directory).catch((error: unknown) => {
      if (!isComplete(directory)) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}
