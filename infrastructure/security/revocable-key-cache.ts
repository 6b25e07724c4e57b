import { NotifiedCache } from '../../application/notified-cache.js';
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
  private readonly cache: NotifiedCache<{ owner: ApiKeyOwner; expiresAt: number }>;
  private readonly now: () => number;

  constructor(
    private readonly source: ApiKeyOwners,
    private readonly options: RevocableKeyCacheOptions,
  ) {
    this.cache = new NotifiedCache(options.maxEntries);
    this.now = options.now ?? Date.now;
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    const entry = this.cache.get(keyHash);
    if (entry !== undefined) {
      if (entry.expiresAt > this.now()) return entry.owner;
      this.cache.drop(keyHash);
    }
    const ticket = this.cache.ticket();
    const owner = await this.source.findActiveKey(keyHash);
    if (owner !== null && this.options.ttlMs > 0)
      this.cache.remember(keyHash, { owner, expiresAt: this.now() + this.options.ttlMs }, ticket);
    return owner;
  }

  evict(keyId: string): void {
    this.cache.forgetWhere((entry) => entry.owner.keyId === keyId);
  }

  trust(): void {
    this.cache.trust();
  }

  distrust(): void {
    this.cache.distrust();
  }
}
