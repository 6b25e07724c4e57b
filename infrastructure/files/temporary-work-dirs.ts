import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { WorkDirs } from '../../application/ports/work-dirs.js';

export interface WorkDirOwner {
  host: string;
  pid: number;
}

/** Whether a process of this host runs under `pid` (signal 0 checks without sending anything). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Scratch directories under `<root>/<host>-<pid>/`, one per attempt, so that
 * what a process leaves behind when it dies (killed, out of memory, power
 * cut) can be told apart from what live processes use, and removed at start.
 */
export class TemporaryWorkDirs implements WorkDirs {
  private readonly ownerPrefix: string;
  private readonly ownDir: string;

  constructor(
    private readonly root: string,
    private readonly owner: WorkDirOwner = { host: hostname(), pid: process.pid },
    private readonly isRunning: (pid: number) => boolean = processRuns,
  ) {
    this.ownerPrefix = `${owner.host.replace(/[^A-Za-z0-9_.-]/g, '_')}-`;
    this.ownDir = path.join(root, `${this.ownerPrefix}${owner.pid}`);
  }

  async create(label: string): Promise<string> {
    await mkdir(this.ownDir, { recursive: true });
    return mkdtemp(path.join(this.ownDir, `${label.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * Removes the directories of processes of this host that no longer run,
   * and this process's own (left by an earlier process with the same pid, as
   * in a restarted container). Other hosts' directories on a shared volume
   * are left alone: their processes cannot be checked from here. Call it
   * before this process creates any directory. Returns what it removed.
   */
  async removeStale(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !entry.name.startsWith(this.ownerPrefix)) continue;
      const pidText = entry.name.slice(this.ownerPrefix.length);
      if (!/^\d+$/.test(pidText)) continue;
      const pid = Number(pidText);
      if (pid !== this.owner.pid && this.isRunning(pid)) continue;
      await rm(path.join(this.root, entry.name), { recursive: true, force: true });
      removed.push(entry.name);
    }
    return removed;
  }
}
