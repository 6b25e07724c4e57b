import type { ExclusiveLock } from '../../application/ports/exclusive-lock.js';

/**
 * One process of the deployment at a time: waits for `lock`, runs `lead` with a signal
 * that aborts on `stop` or when the lock is lost (its connection went), releases the
 * lock and waits for it again, until `stop`.
 */
export async function whileHoldingLock(
  lock: ExclusiveLock,
  stop: AbortSignal,
  lead: (active: AbortSignal, lost: AbortSignal) => Promise<void>,
): Promise<void> {
  while (!stop.aborted) {
    const held = await lock.acquire(stop);
    if (held === null) return;
    try {
      await lead(AbortSignal.any([stop, held.lost]), held.lost);
    } finally {
      await held.release().catch(() => undefined);
    }
  }
}
