import type { ExclusiveLock, HeldExclusiveLock } from '../../application/ports/exclusive-lock.js';
import type { Logger } from '../../application/ports/logger.js';
import { type AcquireLock, acquireSessionLock } from './session-advisory-lock.js';

/**
 * A PostgreSQL session advisory lock on a connection of its own: it dies with its holder. In embedded mode the
 * storage's `acquireLock` (in-process locks, since PGlite's one session grants every advisory lock) takes its place.
 */
export class PostgresExclusiveLock implements ExclusiveLock {
  constructor(
    private readonly options: { connectionString: string; key: string; logger: Logger; acquireLock?: AcquireLock },
  ) {}

  acquire(signal: AbortSignal): Promise<HeldExclusiveLock | null> {
    const { acquireLock = acquireSessionLock, ...lock } = this.options;
    return acquireLock({ ...lock, signal });
  }
}
