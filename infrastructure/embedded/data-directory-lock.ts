import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/** Another living process has the embedded database open. */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${directory} is open in process ${pid}`);
    this.name = 'DataDirectoryInUseError';
  }
}

export interface DataDirectoryLock {
  release(): Promise<void>;
}

const LOCK_FILE = 'owner.pid';

/**
 * PGlite gives one process a data directory: two would corrupt it. The
 * owner's pid is kept beside the database; a file left by a process that no
 * longer runs (killed, crashed) is taken over.
 */
export async function lockDataDirectory(directory: string): Promise<DataDirectoryLock> {
  const file = path.join(directory, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await dataDirectoryOwner(directory);
    if (owner !== null) throw new DataDirectoryInUseError(directory, owner);
    await rm(file, { force: true });
  }
  throw new Error(`Could not lock the embedded database in ${directory}`);
}

/** The pid of the living process that has the directory open, or null. */
export async function dataDirectoryOwner(directory: string): Promise<number | null> {
  const pid = Number((await readFile(path.join(directory, LOCK_FILE), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return isAlive(pid) ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
