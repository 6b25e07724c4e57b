/** A lock held by one process of the deployment at a time, released when its holder dies. */
export interface HeldExclusiveLock {
  /** Aborts when the lock is lost (its holder's connection went away). */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface ExclusiveLock {
  /** Waits until this process holds the lock; null when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<HeldExclusiveLock | null>;
}
