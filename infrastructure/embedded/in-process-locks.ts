import type { AcquireLock, HeldLock } from '../postgres/session-advisory-lock.js';
import { sleep } from '../system/sleep.js';

/**
 * Leadership locks for a database only this process opens (the embedded
 * mode): PGlite runs one session, in which every advisory lock is granted at
 * once, so exclusion between the processors of this process is kept here
 * instead. Same contract as the session lock: wait, retry, give up on
 * timeout or abort; the lock is never lost while the process lives.
 */
export function inProcessLocks(): AcquireLock {
  const held = new Set<string>();
  return async (options) => {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let waitingLogged = false;
    while (!options.signal?.aborted && Date.now() <= deadline) {
      if (!held.has(options.key)) {
        held.add(options.key);
        return release(held, options.key);
      }
      if (!waitingLogged)
        options.logger.info(
          { lock: options.key },
          'Lock held by another processor of this process; waiting to take over',
        );
      waitingLogged = true;
      await sleep(Math.min(options.retryMs ?? 500, Math.max(0, deadline - Date.now())), options.signal);
    }
    return null;
  };
}

function release(held: Set<string>, key: string): HeldLock {
  let released = false;
  return {
    key,
    lost: new AbortController().signal,
    async release() {
      if (released) return;
      released = true;
      held.delete(key);
    },
  };
}
