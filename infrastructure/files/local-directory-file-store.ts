import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore, StoredFileInfo } from '../../application/ports/file-store.js';

/** Files in a local directory, keyed by relative path; keys never escape the root. */
export class LocalDirectoryFileStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, localPath: string, options: { signal?: AbortSignal } = {}): Promise<StoredFileInfo> {
    const { signal } = options;
    signal?.throwIfAborted();
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.partial`;
    try {
      try {
        await rename(localPath, temporary);
      } catch (error) {
        // Across file systems a rename fails; copy instead.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await pipeline(createReadStream(localPath), createWriteStream(temporary), { signal });
      }
      signal?.throwIfAborted();
      // The final name appears whole or not at all, so a crash never leaves half a file under a key.
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { key, size: (await stat(target)).size };
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { key, size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range === undefined ? {} : { start: range.start, end: range.end });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeByPrefix(prefix: string, options: { except?: string } = {}): Promise<string[]> {
    if (prefix === '') throw new Error('Refusing to remove every file in the store');
    const folderKey = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const namePrefix = prefix.slice(folderKey.length);
    const folder = folderKey === '' ? this.root : this.pathOf(folderKey.slice(0, -1));
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.name.startsWith(namePrefix)) continue;
      const key = folderKey + entry.name;
      // A folder whose name matches holds only keys that match, as an object store's prefix listing would have it.
      if (entry.isDirectory()) removed.push(...(await this.removeByPrefix(`${key}/`, options)));
      else if (key !== options.except) {
        await rm(this.pathOf(key), { force: true });
        removed.push(key);
      }
    }
    return removed;
  }

  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`File key outside the store: ${key}`);
    return resolved;
  }
}
