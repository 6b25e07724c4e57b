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
  constructor(private readonly encryptionKey: Buffer) {
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
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
