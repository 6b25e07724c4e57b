import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A master key and the id rows wrapped under it record (derived from it, so it tells nothing about it). */
export interface MasterKey {
  id: string;
  wrappingKey: Buffer;
}

export function masterKey(key: Buffer): MasterKey {
  const wrappingKey = Buffer.from(
    hkdfSync('sha256', key, Buffer.alloc(0), 'video-download-service:data-key-wrapping', 32),
  );
  const id = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'video-download-service:master-key-id', 8)).toString(
    'hex',
  );
  return { id, wrappingKey };
}

/**
 * Envelope encryption: data keys are kept wrapped (AES-256-GCM) by the current master key, bound to the account they
 * belong to (a row moved to another account does not unwrap). Rows wrapped by an earlier master key unwrap while that
 * key is still configured as a previous one, until `rotate-master-key` wraps them again under the current one.
 */
export class MasterKeys {
  private readonly byId: Map<string, MasterKey>;

  constructor(
    readonly current: MasterKey,
    previous: readonly MasterKey[] = [],
  ) {
    this.byId = new Map([...previous, current].map((key) => [key.id, key]));
  }

  knows(masterKeyId: string): boolean {
    return this.byId.has(masterKeyId);
  }

  wrap(dataKey: Buffer, owner: string): { wrappedKey: string; masterKeyId: string } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.wrappingKey, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return {
      wrappedKey: Buffer.concat([iv, cipher.getAuthTag(), wrapped]).toString('base64'),
      masterKeyId: this.current.id,
    };
  }

  unwrap(wrappedKey: string, masterKeyId: string, owner: string): Buffer {
    const key = this.byId.get(masterKeyId);
    if (key === undefined)
      throw new Error(
        `A data key is wrapped by master key ${masterKeyId}, which is not configured: set it in PREVIOUS_MASTER_KEYS`,
      );
    const bytes = Buffer.from(wrappedKey, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key.wrappingKey, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }
}
