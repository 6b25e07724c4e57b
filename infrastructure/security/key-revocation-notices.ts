/**
 * Revocations heard by this process (from the accounts projection's
 * notifications), handed to whatever holds something for a key: the key
 * cache drops it, open event streams of the key end.
 */
export class KeyRevocationNotices {
  private readonly listeners = new Set<(keyId: string) => void>();

  /** Calls `listener` with the id of each key revoked from now on; the returned function stops it. */
  subscribe(listener: (keyId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(keyId: string): void {
    for (const listener of this.listeners) listener(keyId);
  }
}
