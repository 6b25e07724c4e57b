import type { ExclusiveLock, HeldExclusiveLock } from '../../application/ports/exclusive-lock.js';
import type { Logger } from '../../application/ports/logger.js';
import { acquireSessionLock } from '../../projections/session-advisory-lock.js';

/** A PostgreSQL session advisory lock on a connection of its own: it dies with its holder. */
export class PostgresExclusiveLock implements ExclusiveLock {
  constructor(private readonly options: { connectionString: string; key: string; logger: Logger }) {}

  acquire(signal: AbortSignal): Promise<HeldExclusiveLock | null> {
    return acquireSessionLock({ ...this.options, signal });
  }
}
