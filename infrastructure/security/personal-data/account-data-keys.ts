import { randomBytes } from 'node:crypto';
import { NotifiedCache } from '../../../application/notified-cache.js';
import type { MasterKeys } from './master-keys.js';
import { PersonalDataCipher } from './personal-data-cipher.js';
import type { PostgresDataKeyStore, StoredDataKey } from './postgres-data-key-store.js';

/** An account's cipher, or `erased` once its key is destroyed (or was never made but sealed values exist: lost). */
export type AccountCipher = PersonalDataCipher | 'erased';

const MAX_CACHED_KEYS = 10_000;

/**
 * Each account's data key, made at its first sealed value and kept unwrapped in memory while key destructions are
 * being heard (see NotifiedCache): a destruction elsewhere reaches this process before anything else of the erasure.
 */
export class AccountDataKeys {
  /** `none`: the account had no key when looked up (its events, written before sealing, hold plain values). */
  private readonly cache = new NotifiedCache<AccountCipher | 'none'>(MAX_CACHED_KEYS);
  private readonly lookups = new Map<string, Promise<AccountCipher | null>>();

  constructor(
    private readonly store: PostgresDataKeyStore,
    private readonly masterKeys: MasterKeys,
  ) {}

  /** For writing: the account's key, made now if it has none. */
  async forSealing(accountId: string): Promise<AccountCipher> {
    const known = await this.forOpening(accountId);
    if (known !== null) return known;
    const made = await this.store.create(accountId, this.masterKeys.wrap(randomBytes(32), accountId));
    this.cache.forget(accountId);
    return this.toCipher(accountId, made);
  }

  /**
   * For reading: the account's key, or null when it had none when last looked up; `fresh` looks again (a sealed value
   * read after a null: another process has made the key since).
   */
  forOpening(accountId: string, fresh = false): Promise<AccountCipher | null> {
    if (fresh) this.cache.drop(accountId);
    const cached = this.cache.get(accountId);
    if (cached !== undefined) return Promise.resolve(cached === 'none' ? null : cached);
    const underWay = this.lookups.get(accountId);
    if (underWay !== undefined) return underWay;
    const ticket = this.cache.ticket();
    const lookup = this.store
      .find(accountId)
      .then((stored) => {
        const cipher = stored === null ? null : this.toCipher(accountId, stored);
        this.cache.remember(accountId, cipher ?? 'none', ticket);
        return cipher;
      })
      .finally(() => this.lookups.delete(accountId));
    this.lookups.set(accountId, lookup);
    return lookup;
  }

  /** Heard: `accountId`'s key is destroyed. */
  destroyed(accountId: string): void {
    this.lookups.delete(accountId);
    this.cache.forget(accountId);
  }

  /** Destructions are heard from now on. */
  trust(): void {
    this.cache.trust();
  }

  /** Destructions may be missed: every read asks the database until trusted again. */
  distrust(): void {
    this.lookups.clear();
    this.cache.distrust();
  }

  private toCipher(accountId: string, stored: StoredDataKey): AccountCipher {
    if (stored === 'erased') return 'erased';
    return new PersonalDataCipher(this.masterKeys.unwrap(stored.wrappedKey, stored.masterKeyId, accountId));
  }
}
