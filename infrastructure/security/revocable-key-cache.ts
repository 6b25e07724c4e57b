import type { ApiKeyOwner } from '../../application/ports/read-models.js';

export interface ApiKeyOwners {
  findActiveKey(keyHash: string): Promise<ApiKeyOwner | null>;
}

export interface RevocableKeyCacheOptions {
  /** A backstop: an entry is looked up again after this long even without a revocation. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * Active keys' owners kept in memory, so a request with a known key needs no
 * lookup. Correctness rests on being told of every revocation
 * (`evict(keyId)`) while `trust()` is in force: the owner of the
 * notifications calls `distrust()` the moment it may miss one, and the cache
 * then answers from the source until trusted again. Unknown keys are never
 * cached (a key issued a moment later must work, and guessed keys must not
 * fill memory). A lookup that overlapped an eviction is not stored, since
 * it may have read the key just before its revocation.
 */
export class RevocableKeyCache implements ApiKeyOwners {
  private readonly entries = new Map<string, { owner: ApiKeyOwner; expiresAt: number }>();
  private trusted = false;
  /** Moves on at every eviction and change of trust; a lookup stores its answer only if it did not move meanwhile. */
  private generation = 0;
  private readonly now: () => number;

  constructor(
    private readonly source: ApiKeyOwners,
    private readonly options: RevocableKeyCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    if (this.trusted) {
      const entry = this.entries.get(keyHash);
      if (entry !== undefined) {
        if (entry.expiresAt > this.now()) return entry.owner;
        this.entries.delete(keyHash);
      }
    }
    const generation = this.generation;
    const owner = await this.source.findActiveKey(keyHash);
    if (owner !== null && this.trusted && generation === this.generation && this.options.ttlMs > 0) this.remember(keyHash, owner);
    return owner;
  }

  evict(keyId: string): void {
    this.generation += 1;
    for (const [keyHash, entry] of this.entries) if (entry.owner.keyId === keyId) this.entries.delete(keyHash);
  }

  /** Revocations are being reported from now on. What was cached before may have missed some, so it goes. */
  trust(): void {
    this.generation += 1;
    this.entries.clear();
    this.trusted = true;
  }

  distrust(): void {
    this.generation += 1;
    this.trusted = false;
    this.entries.clear();
  }

  private remember(keyHash: string, owner: ApiKeyOwner): void {
    this.entries.set(keyHash, { owner, expiresAt: this.now() + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
