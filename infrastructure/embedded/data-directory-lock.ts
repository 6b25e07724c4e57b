import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
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

/** The file an earlier version kept; it counts as generation 0. */
const LEGACY_FILE = 'owner.pid';
const GENERATION_FILE = /^owner\.(\d+)\.pid$/;
/** Written into a generation by a release: nobody holds the directory. */
const FREE = 0;

/** Directories this process holds, so its own pid in a file means "held" only for these. */
const heldHere = new Set<string>();
/** Directories this process holds or is taking, so two calls in one process never race each other. */
const claimedHere = new Set<string>();

/**
 * PGlite gives one process a data directory: two would corrupt it. Ownership
 * is a sequence of generations, `owner.<n>.pid`, each holding a pid and never
 * rewritten; the highest one is current. A starter that finds the current
 * owner gone (or free) takes the directory by creating generation n+1 with an
 * exclusive hard link of a file already holding its pid: of several starters
 * after a crash exactly one creates it, the others then see a living owner.
 * A file naming this process's own pid, from a directory it does not hold, is
 * stale: a restarted container runs its node as pid 1 again.
 */
export async function lockDataDirectory(directory: string): Promise<DataDirectoryLock> {
  const key = path.resolve(directory);
  if (claimedHere.has(key)) throw new DataDirectoryInUseError(directory, process.pid);
  claimedHere.add(key);
  try {
    const mine = await takeGeneration(directory);
    heldHere.add(key);
    return { release: () => release(directory, key, mine) };
  } catch (error) {
    claimedHere.delete(key);
    throw error;
  }
}

/** The generation this process created and still is the current one. */
async function takeGeneration(directory: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const current = await currentGeneration(directory);
    if (current !== null && (await beingWritten(directory, current))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const owner = current === null ? null : await livingOwner(directory, current);
    if (owner !== null) throw new DataDirectoryInUseError(directory, owner);
    const mine = (current?.number ?? 0) + 1;
    if (!(await createGeneration(directory, mine, process.pid))) continue;
    // A slow starter may create a generation whose successor was created and tidied away meanwhile.
    if ((await currentGeneration(directory))?.number !== mine) {
      await rm(generationPath(directory, mine), { force: true });
      continue;
    }
    await removeGenerationsBelow(directory, mine);
    return mine;
  }
  throw new Error(`Could not lock the embedded database in ${directory}`);
}

/** The pid of the living process that has the directory open, or null. */
export async function dataDirectoryOwner(directory: string): Promise<number | null> {
  const current = await currentGeneration(directory);
  return current === null ? null : livingOwner(directory, current);
}

interface Generation {
  number: number;
  file: string;
}

async function release(directory: string, key: string, mine: number): Promise<void> {
  if (!heldHere.delete(key)) return;
  claimedHere.delete(key);
  await createGeneration(directory, mine + 1, FREE);
  await removeGenerationsBelow(directory, mine + 1);
}

async function currentGeneration(directory: string): Promise<Generation | null> {
  let current: Generation | null = null;
  for (const file of await readdir(directory).catch(() => [] as string[])) {
    const number = file === LEGACY_FILE ? 0 : Number(GENERATION_FILE.exec(file)?.[1] ?? -1);
    if (number >= 0 && (current === null || number > current.number)) current = { number, file };
  }
  return current;
}

async function livingOwner(directory: string, generation: Generation): Promise<number | null> {
  const pid = Number((await readFile(path.join(directory, generation.file), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (pid === process.pid) return heldHere.has(path.resolve(directory)) ? pid : null;
  return isAlive(pid) ? pid : null;
}

/** File systems without hard links (some network and host-shared mounts) answer these to link(). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/** An empty generation younger than this is still being written (on file systems without hard links). */
const WRITING_GRACE_MS = 5_000;

/** Creates generation `number` holding `pid`, whole or not at all; false when it exists already. */
async function createGeneration(directory: string, number: number, pid: number): Promise<boolean> {
  const target = generationPath(directory, number);
  const draft = path.join(directory, `.owner-draft-${process.pid}-${randomUUID()}`);
  await writeFile(draft, String(pid));
  try {
    await link(draft, target);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    // Still exclusive, though readers may briefly find the file empty (see beingWritten).
    return writeFile(target, String(pid), { flag: 'wx' }).then(
      () => true,
      (failure: NodeJS.ErrnoException) => (failure.code === 'EEXIST' ? false : Promise.reject(failure)),
    );
  } finally {
    await rm(draft, { force: true });
  }
}

async function beingWritten(directory: string, generation: Generation): Promise<boolean> {
  try {
    const info = await stat(path.join(directory, generation.file));
    return info.size === 0 && Date.now() - info.mtimeMs < WRITING_GRACE_MS;
  } catch {
    return false;
  }
}

async function removeGenerationsBelow(directory: string, number: number): Promise<void> {
  for (const file of await readdir(directory).catch(() => [] as string[])) {
    const older = file === LEGACY_FILE ? 0 : Number(GENERATION_FILE.exec(file)?.[1] ?? Infinity);
    if (older < number) await rm(path.join(directory, file), { force: true });
  }
}

function generationPath(directory: string, number: number): string {
  return path.join(directory, `owner.${number}.pid`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
