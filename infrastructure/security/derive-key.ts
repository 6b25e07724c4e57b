import { hkdfSync } from 'node:crypto';

/** Separate keys per purpose, all from the one master key. */
export function deriveKey(masterKey: Buffer, purpose: 'api-key-encryption' | 'download-links'): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `video-download-service:${purpose}`, 32));
}
