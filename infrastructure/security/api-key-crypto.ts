import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';

const KEY_PREFIX = 'vds_';
const FORMAT_VERSION = 'v1';

/**
 * Keys are `vds_` + 32 random bytes in base64url. They are looked up by
 * SHA-256 (a key has 256 bits of entropy, so a plain hash is enough) and kept
 * encrypted with AES-256-GCM because the key also signs webhooks.
 */
export class ApiKeyCrypto implements ApiKeySecrets {
  /** `previousKeys`: those of master keys since replaced, so keys issued before a rotation still sign webhooks. */
  constructor(
    private readonly encryptionKey: Buffer,
    private readonly previousKeys: readonly Buffer[] = [],
  ) {
    if (encryptionKey.length !== 32) throw new Error('The API key encryption key must be 32 bytes');
  }

  generate(): { key: string; keyPrefix: string } {
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    return { key, keyPrefix: key.slice(0, KEY_PREFIX.length + 6) };
  }

  hash(key: string): string {
    // The one-shot form: every authenticated request hashes its key, and a Hash object costs more than the digest.
    return hash('sha256', key, 'hex');
  }

  encrypt(key: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    return [
      FORMAT_VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join(':');
  }

  decrypt(encryptedKey: string): string {
    const [version, iv, tag, ciphertext] = encryptedKey.split(':');
    if (version !== FORMAT_VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error('Unrecognised encrypted key format');
    }
    const parts = { iv: Buffer.from(iv, 'base64url'), tag: Buffer.from(tag, 'base64url'), ciphertext };
    // The authentication tag tells which master key it was under: the current one, or one it replaced.
    const keys = [this.encryptionKey, ...this.previousKeys];
    for (const key of keys.slice(0, -1)) {
      try {
        return decryptWith(key, parts);
      } catch {
        // Not this one: try the next.
      }
    }
    return decryptWith(keys.at(-1) as Buffer, parts);
  }
}

function decryptWith(key: Buffer, parts: { iv: Buffer; tag: Buffer; ciphertext: string }): string {
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv);
  decipher.setAuthTag(parts.tag);
  return Buffer.concat([decipher.update(Buffer.from(parts.ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
