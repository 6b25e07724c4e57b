import { NotifiedCache } from '../../application/notified-cache.js';
import type { ApiKeyOwner } from '../../application/ports/read-models.js';

/** Share of the TTL after which a key still in use is looked up again in the background. */
const REFRESH_AT_SHARE = 0.75;

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
 * it may have read the key just before its revocation. Requests for a key
 * being looked up share that lookup unless something changed since it began,
 * and a key still in use is looked up again in the background before its
 * entry expires, so a busy key's requests never queue on the database.
 */
export class RevocableKeyCache implements ApiKeyOwners {
  private readonly cache: NotifiedCache<{ owner: ApiKeyOwner; refreshAt: number; expiresAt: number }>;
  /** Lookups under way, which a request for the same key joins while nothing changed since they started. */
  private readonly lookups = new Map<string, { ticket: number; owner: Promise<ApiKeyOwner | null> }>();
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
      const now = this.now();
      if (entry.expiresAt > now) {
        // A busy key is looked up again in the background before it expires, so none of its requests waits for it.
        if (entry.refreshAt <= now) this.lookUp(keyHash).catch(() => undefined);
        return entry.owner;
      }
      this.cache.drop(keyHash);
    }
    return this.lookUp(keyHash);
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

  /** One lookup per key at a time while revocations are heard; untrusted, every request reads for itself. */
  private lookUp(keyHash: string): Promise<ApiKeyOwner | null> {
    const ticket = this.cache.ticket();
    const running = this.lookups.get(keyHash);
    if (running !== undefined && running.ticket === ticket && this.cache.trusted) return running.owner;
    const owner = this.source.findActiveKey(keyHash).then((found) => {
      this.remember(keyHash, found, ticket);
      return found;
    });
    const lookup = { ticket, owner };
    this.lookups.set(keyHash, lookup);
    const done = () => {
      if (this.lookups.get(keyHash) === lookup) this.lookups.delete(keyHash);
    };
    owner.then(done, done);
    return owner;
  }

  private remember(keyHash: string, owner: ApiKeyOwner | null, ticket: number): void {
    // Gone from the source without a revocation heard, or refused (a suspended or closed account, whose refusals are
    // rare and whose reactivation must show at once): the entry goes too.
    if (owner === null || (owner.access ?? null) !== null) this.cache.drop(keyHash);
    else if (this.options.ttlMs > 0) {
      const now = this.now();
      const entry = {
        owner,
        refreshAt: now + this.options.ttlMs * REFRESH_AT_SHARE,
        expiresAt: now + this.options.ttlMs,
      };
      this.cache.remember(keyHash, entry, ticket);
    }
  }
}
