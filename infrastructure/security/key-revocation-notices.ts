/**
 * Revocations heard by this process (from the accounts projection's
 * notifications), handed to whatever holds something for a key: the key
 * cache drops it, open event streams of the key end. Notices sent while
 * nothing listened are lost, so each time listening (re)starts the holders
 * are told to check what they hold against the read model.
 */
export class KeyRevocationNotices {
  private readonly listeners = new Set<(keyId: string) => void>();
  private readonly checkers = new Set<() => void>();

  /** Calls `listener` with the id of each key revoked from now on; the returned function stops it. */
  subscribe(listener: (keyId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `check` each time notices are heard again after a time in which some may have been missed. */
  onResumed(check: () => void): () => void {
    this.checkers.add(check);
    return () => this.checkers.delete(check);
  }

  announce(keyId: string): void {
    for (const listener of this.listeners) listener(keyId);
  }

  resumed(): void {
    for (const check of this.checkers) check();
  }
}
