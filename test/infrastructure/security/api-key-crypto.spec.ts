import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiKeyCrypto } from '../../../infrastructure/security/api-key-crypto.js';
import { deriveKey } from '../../../infrastructure/security/derive-key.js';
import { loadMasterKey } from '../../../infrastructure/security/master-key.js';

describe('API key secrets', () => {
  const crypto = new ApiKeyCrypto(deriveKey(randomBytes(32), 'api-key-encryption'));

  it('generates prefixed, unguessable keys with a short identifying prefix', () => {
    const a = crypto.generate();
    const b = crypto.generate();
    assert.match(a.key, /^vds_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a.key, b.key);
    assert.ok(a.key.startsWith(a.keyPrefix));
    assert.equal(a.keyPrefix.length, 10);
  });

  it('hashes deterministically with SHA-256', () => {
    const { key } = crypto.generate();
    assert.equal(crypto.hash(key), crypto.hash(key));
    assert.match(crypto.hash(key), /^[0-9a-f]{64}$/);
  });

  it('encrypts with a fresh nonce each time and decrypts back', () => {
    const { key } = crypto.generate();
    const first = crypto.encrypt(key);
    const second = crypto.encrypt(key);
    assert.notEqual(first, second);
    assert.ok(!first.includes(key));
    assert.equal(crypto.decrypt(first), key);
  });

  it('refuses a tampered ciphertext or a different master key', () => {
    const { key } = crypto.generate();
    const sealed = crypto.encrypt(key);
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    parts[3] = body.toString('base64url');
    assert.throws(() => crypto.decrypt(parts.join(':')));
    const other = new ApiKeyCrypto(deriveKey(randomBytes(32), 'api-key-encryption'));
    assert.throws(() => other.decrypt(sealed));
  });
});

describe('master key', () => {
  it('generates a development key once into a private file and reuses it', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mk-')), 'nested', 'master.key');
    const first = loadMasterKey(null, file);
    assert.equal(first.generated, true);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const second = loadMasterKey(null, file);
    assert.equal(second.generated, false);
    assert.deepEqual(second.key, first.key);
    assert.equal(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').length, 32);
  });

  it('accepts a configured key in hex or base64 and rejects a wrong length', () => {
    const raw = randomBytes(32);
    assert.deepEqual(loadMasterKey(raw.toString('hex'), '/nonexistent').key, raw);
    assert.deepEqual(loadMasterKey(raw.toString('base64'), '/nonexistent').key, raw);
    assert.throws(() => loadMasterKey(randomBytes(16).toString('base64'), '/nonexistent'), /32 bytes/);
  });
});
