import { readFile, rename, writeFile } from 'node:fs/promises';
import { lock } from 'proper-lockfile';
import { mergeCookieJars } from './merge-cookie-jars.js';

/**
 * Merges a run's cookie changes (from `base`, the jar it started from, to `theirs`, what yt-dlp wrote back) into the
 * jar at `jarPath`. Read, merge and replace hold a lock file beside the jar, since any process sharing the file may
 * write back at the same time and one would lose the other's cookies (mkdir is atomic on local and network file
 * systems; the lock is kept fresh, so a dead holder's is stale after `STALE_MS`). The jar is replaced whole by a
 * rename, so readers need no lock.
 */
export async function mergeIntoCookieJar(jarPath: string, base: string, theirs: string): Promise<void> {
  const release = await lock(jarPath, {
    stale: STALE_MS,
    // Long enough to outwait a holder that died (STALE_MS) and a queue of live ones.
    retries: { retries: 60, factor: 1.3, minTimeout: 10, maxTimeout: 250, randomize: true },
    // The default throws from a timer, which would end the process; a lock lost
    // to a long stall only risks this one write-back, so carry on.
    onCompromised: () => undefined,
  });
  try {
    const ours = await readFile(jarPath, 'utf8');
    const temporary = `${jarPath}.${process.pid}.partial`;
    await writeFile(temporary, mergeCookieJars(base, ours, theirs), { mode: 0o600 });
    await rename(temporary, jarPath);
  } finally {
    // Releasing a lock found compromised fails; there is nothing left to release then.
    await release().catch(() => undefined);
  }
}

const STALE_MS = 10_000;
