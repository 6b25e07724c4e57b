import assert from 'node:assert/strict';
import type { ApiKeyOwner } from '../../../application/ports/read-models.js';
import { type ApiKeyOwners, RevocableKeyCache } from '../../../infrastructure/security/revocable-key-cache.js';

/** A key store that counts lookups and can hold one lookup open. */
class CountingOwners implements ApiKeyOwners {
  readonly keys = new Map<string, ApiKeyOwner>();
  lookups = 0;
  private held: Promise<void> | null = null;

  hold(): () => void {
    let release: () => void = () => {};
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = null;
      release();
    };
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    this.lookups += 1;
    const owner = this.keys.get(keyHash) ?? null;
    if (this.held !== null) await this.held;
    return owner;
  }
}

describe('RevocableKeyCache', () => {
  let now: number;
  let source: CountingOwners;
  let cache: RevocableKeyCache;

  beforeEach(() => {
    now = 0;
    source = new CountingOwners();
    source.keys.set('hash-a', { accountId: 'acc-1', keyId: 'key-a', planId: 'starter', access: null, readOnly: false });
    source.keys.set('hash-b', { accountId: 'acc-1', keyId: 'key-b', planId: 'starter', access: null, readOnly: false });
    cache = new RevocableKeyCache(source, { ttlMs: 10_000, maxEntries: 100, now: () => now });
    cache.trust();
  });

  it('answers a known key from memory after the first lookup', async () => {
    assert.deepEqual(await cache.findActiveKey('hash-a'), {
      accountId: 'acc-1',
      keyId: 'key-a',
      planId: 'starter',
      access: null,
      readOnly: false,
    });
    assert.deepEqual(await cache.findActiveKey('hash-a'), {
      accountId: 'acc-1',
      keyId: 'key-a',
      planId: 'starter',
      access: null,
      readOnly: false,
    });
    assert.equal(source.lookups, 1);
  });

  it('refuses a revoked key on the next lookup after its eviction, and keeps the other keys', async () => {
    await cache.findActiveKey('hash-a');
    await cache.findActiveKey('hash-b');
    source.keys.delete('hash-a');
    cache.evict('key-a');
    assert.equal(await cache.findActiveKey('hash-a'), null);
    assert.deepEqual(await cache.findActiveKey('hash-b'), {
      accountId: 'acc-1',
      keyId: 'key-b',
      planId: 'starter',
      access: null,
      readOnly: false,
    });
    assert.equal(source.lookups, 3);
  });

  it('never caches an unknown key, so a key issued a moment later works', async () => {
    assert.equal(await cache.findActiveKey('hash-new'), null);
    source.keys.set('hash-new', {
      accountId: 'acc-2',
      keyId: 'key-new',
      planId: 'free',
      access: null,
      readOnly: false,
    });
    assert.deepEqual(await cache.findActiveKey('hash-new'), {
      accountId: 'acc-2',
      keyId: 'key-new',
      planId: 'free',
      access: null,
      readOnly: false,
    });
  });

  it('never caches a suspended account’s key, so its reactivation shows at once', async () => {
    const suspended = { status: 'suspended' as const, reason: 'unpaid', since: 0 };
    source.keys.set('hash-a', {
      accountId: 'acc-1',
      keyId: 'key-a',
      planId: 'starter',
      access: suspended,
      readOnly: false,
    });
    assert.deepEqual((await cache.findActiveKey('hash-a'))?.access, suspended);
    source.keys.set('hash-a', { accountId: 'acc-1', keyId: 'key-a', planId: 'starter', access: null, readOnly: false });
    assert.equal((await cache.findActiveKey('hash-a'))?.access, null);
    assert.equal(source.lookups, 2);
  });

  it('looks a key up again once its entry is older than the TTL', async () => {
    await cache.findActiveKey('hash-a');
    now = 10_000;
    source.keys.delete('hash-a');
    assert.equal(await cache.findActiveKey('hash-a'), null);
  });

  it('does not store a lookup that overlapped an eviction, which may have read the key just before its revocation', async () => {
    const release = source.hold();
    const lookup = cache.findActiveKey('hash-a');
    cache.evict('key-a');
    source.keys.delete('hash-a');
    release();
    assert.deepEqual(await lookup, {
      accountId: 'acc-1',
      keyId: 'key-a',
      planId: 'starter',
      access: null,
      readOnly: false,
    });
    assert.equal(await cache.findActiveKey('hash-a'), null);
  });

  it('lets concurrent requests for a key share one lookup', async () => {
    const release = source.hold();
    const owners = Array.from({ length: 5 }, () => cache.findActiveKey('hash-a'));
    release();
    for (const owner of await Promise.all(owners)) assert.equal(owner?.keyId, 'key-a');
    assert.equal(source.lookups, 1);
  });

  it('never lets a request that arrives after an eviction join a lookup that began before it', async () => {
    const release = source.hold();
    const early = cache.findActiveKey('hash-a');
    cache.evict('key-a');
    source.keys.delete('hash-a');
    const late = cache.findActiveKey('hash-a');
    release();
    assert.equal((await early)?.keyId, 'key-a');
    assert.equal(await late, null);
    assert.equal(source.lookups, 2);
  });

  it('looks a key in use up again in the background before it expires, while its requests are answered from memory', async () => {
    await cache.findActiveKey('hash-a');
    now = 7_500;
    const release = source.hold();
    assert.equal((await cache.findActiveKey('hash-a'))?.keyId, 'key-a', 'answered without waiting for the lookup');
    assert.equal((await cache.findActiveKey('hash-a'))?.keyId, 'key-a');
    assert.equal(source.lookups, 2, 'one lookup ahead, however many requests');
    release();
    await new Promise((resolve) => setImmediate(resolve));
    now = 14_000;
    assert.equal((await cache.findActiveKey('hash-a'))?.keyId, 'key-a');
    assert.equal(source.lookups, 2, 'the refreshed entry lasts a TTL from its lookup, past the first one');
    source.keys.delete('hash-a');
    now = 16_000;
    await cache.findActiveKey('hash-a');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await cache.findActiveKey('hash-a'), null, 'a key the background lookup no longer finds is dropped');
  });

  it('caches nothing and answers from the source while revocations may be missed', async () => {
    cache.distrust();
    await cache.findActiveKey('hash-a');
    await Promise.all([cache.findActiveKey('hash-a'), cache.findActiveKey('hash-a')]);
    assert.equal(source.lookups, 3, 'not even a lookup under way is shared');
  });

  it('forgets what it cached when it stops being told of revocations', async () => {
    await cache.findActiveKey('hash-a');
    cache.distrust();
    source.keys.delete('hash-a');
    cache.trust();
    assert.equal(await cache.findActiveKey('hash-a'), null);
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const small = new RevocableKeyCache(source, { ttlMs: 10_000, maxEntries: 1, now: () => now });
    small.trust();
    await small.findActiveKey('hash-a');
    await small.findActiveKey('hash-b');
    await small.findActiveKey('hash-a');
    assert.equal(source.lookups, 3);
  });
});
