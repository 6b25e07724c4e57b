import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ProcessIdentity, bootedAt, checkableFrom, ownIdentity, startTimeOf } from './process-identity.js';

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
  /**
   * Whether the last heartbeat was written. While it cannot be (a full, remounted or vanished disk), another
   * namespace's starter may take the directory once the lease lapses: /readyz shows it, and the next beat that
   * succeeds clears it.
   */
  readonly beating: boolean;
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

/** How often the owner refreshes its generation's modification time. */
const HEARTBEAT_MS = 2_000;
/**
 * A generation whose owner cannot be checked from here (another pid namespace or machine) is held while its heartbeat
 * is younger than this: long enough for an event loop held up by a long query, short enough for a restart after a crash.
 */
const LEASE_MS = 30_000;

/**
 * PGlite gives one process a data directory: two would corrupt it. Ownership
 * is a sequence of generations, `owner.<n>.pid`, each naming its owner and never
 * rewritten; the highest one is current. A starter that finds the current
 * owner gone (or free) takes the directory by creating generation n+1 with an
 * exclusive hard link of a file already naming it: of several starters
 * after a crash exactly one creates it, the others then see a living owner.
 *
 * A pid alone is not an owner: containers sharing the directory each run their
 * node as pid 1, and a restarted container runs it as pid 1 again. So a
 * generation records the pid with the boot id, the pid namespace and the start
 * time, and its owner refreshes the file's modification time (a heartbeat).
 * An owner on this boot and in this pid namespace is checked directly: gone, or
 * its pid now another process (another start time), means stale at once. One
 * that cannot be checked from here (another namespace or machine) holds the
 * directory while its heartbeat is younger than LEASE_MS; a starter facing it
 * watches for the next beat, and takes the directory only once the lease lapsed.
 * A heartbeat older than this machine's boot is stale whatever it says.
 */
export async function lockDataDirectory(directory: string): Promise<DataDirectoryLock> {
  const key = path.resolve(directory);
  if (claimedHere.has(key)) throw new DataDirectoryInUseError(directory, process.pid);
  claimedHere.add(key);
  try {
    const here = await ownIdentity();
    const mine = await takeGeneration(directory, here);
    heldHere.add(key);
    let beating = true;
    const heartbeat = setInterval(() => {
      const now = new Date();
      // A beat that fails is tried again at the next one.
      utimes(generationPath(directory, mine), now, now).then(
        () => {
          beating = true;
        },
        () => {
          beating = false;
        },
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    return {
      get beating() {
        return beating;
      },
      release: () => {
        clearInterval(heartbeat);
        return release(directory, key, mine);
      },
    };
  } catch (error) {
    claimedHere.delete(key);
    throw error;
  }
}

/** The generation this process created and still is the current one. */
async function takeGeneration(directory: string, here: ProcessIdentity): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const current = await currentGeneration(directory);
    if (current !== null && (await beingWritten(directory, current))) {
      await sleep(50);
      continue;
    }
    const owner = current === null ? null : await livingOwner(directory, current, here);
    if (owner !== null && current !== null) {
      const seen = owner.byHeartbeat ? await watchLease(directory, current, here) : 'alive';
      if (seen === 'alive') throw new DataDirectoryInUseError(directory, owner.pid);
      if (seen === 'replaced') continue;
    }
    const mine = (current?.number ?? 0) + 1;
    if (!(await createGeneration(directory, mine, JSON.stringify(here)))) continue;
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

/**
 * Watches a generation held by its heartbeat alone until its owner beats again (alive), its lease lapses (gone) or
 * another generation takes its place.
 */
async function watchLease(
  directory: string,
  generation: Generation,
  here: ProcessIdentity,
): Promise<'alive' | 'gone' | 'replaced'> {
  const first = await heartbeatOf(directory, generation);
  for (;;) {
    if (first === null) return 'replaced';
    await sleep(Math.max(50, Math.min(HEARTBEAT_MS / 4, first + LEASE_MS - Date.now())));
    if ((await currentGeneration(directory))?.number !== generation.number) return 'replaced';
    if ((await heartbeatOf(directory, generation)) !== first) return 'alive';
    if ((await livingOwner(directory, generation, here)) === null) return 'gone';
  }
}

/** The pid of the living process that has the directory open, or null. */
export async function dataDirectoryOwner(directory: string): Promise<number | null> {
  const current = await currentGeneration(directory);
  if (current === null) return null;
  return (await livingOwner(directory, current, await ownIdentity()))?.pid ?? null;
}

interface Generation {
  number: number;
  file: string;
}

async function release(directory: string, key: string, mine: number): Promise<void> {
  if (!heldHere.delete(key)) return;
  claimedHere.delete(key);
  await createGeneration(directory, mine + 1, String(FREE));
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

interface Owner {
  pid: number;
  /** Judged alive by its heartbeat alone: it could not be checked from here. */
  byHeartbeat: boolean;
}

async function livingOwner(directory: string, generation: Generation, here: ProcessIdentity): Promise<Owner | null> {
  const text = await readFile(path.join(directory, generation.file), 'utf8').catch(() => '');
  const owner = parseOwner(text);
  if (owner === null) return null;
  if (owner.boot === null && owner.pidNamespace === null && owner.startTime === null)
    return legacyOwner(directory, owner.pid);
  if (checkableFrom(here, owner)) {
    if (owner.pid === here.pid && owner.startTime === here.startTime)
      return heldHere.has(path.resolve(directory)) ? { pid: owner.pid, byHeartbeat: false } : null;
    return (await startTimeOf(owner.pid)) === owner.startTime ? { pid: owner.pid, byHeartbeat: false } : null;
  }
  const beat = await heartbeatOf(directory, generation);
  if (beat === null || Date.now() - beat >= LEASE_MS) return null;
  // Another boot's owner whose last beat came before this machine booted ran here, and is gone.
  const booted = owner.boot !== here.boot ? await bootedAt() : null;
  if (booted !== null && beat < booted) return null;
  return { pid: owner.pid, byHeartbeat: true };
}

/** A generation written by an earlier version holds a bare pid: judged by it, as that version did. */
function legacyOwner(directory: string, pid: number): Owner | null {
  if (pid === process.pid) return heldHere.has(path.resolve(directory)) ? { pid, byHeartbeat: false } : null;
  return isAlive(pid) ? { pid, byHeartbeat: false } : null;
}

/** A generation's owner: its identity, or a bare pid (an earlier version's); null when free or unreadable. */
function parseOwner(text: string): ProcessIdentity | null {
  const bare = Number(text.trim());
  let owner: Partial<ProcessIdentity> = { pid: bare };
  if (!Number.isInteger(bare)) {
    try {
      owner = JSON.parse(text) as Partial<ProcessIdentity>;
    } catch {
      return null;
    }
  }
  const pid = owner.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
  const stringOr = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    pid,
    boot: stringOr(owner.boot),
    pidNamespace: stringOr(owner.pidNamespace),
    startTime: stringOr(owner.startTime),
  };
}

async function heartbeatOf(directory: string, generation: Generation): Promise<number | null> {
  return stat(path.join(directory, generation.file)).then(
    (info) => info.mtimeMs,
    () => null,
  );
}

/** File systems without hard links (some network and host-shared mounts) answer these to link(). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/** An empty generation younger than this is still being written (on file systems without hard links). */
const WRITING_GRACE_MS = 5_000;

/** Creates generation `number` holding `owner`, whole or not at all; false when it exists already. */
async function createGeneration(directory: string, number: number, owner: string): Promise<boolean> {
  const target = generationPath(directory, number);
  const draft = path.join(directory, `.owner-draft-${process.pid}-${randomUUID()}`);
  await writeFile(draft, owner);
  try {
    await link(draft, target);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
    // Still exclusive, though readers may briefly find the file empty (see beingWritten).
    return writeFile(target, owner, { flag: 'wx' }).then(
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
