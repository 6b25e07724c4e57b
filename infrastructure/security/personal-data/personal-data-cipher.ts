import { createCipheriv, createDecipheriv, createHmac, hash, hkdfSync } from 'node:crypto';

const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** How an erased value reads: the same value gives the same marker within an account, so replays still match them. */
const ERASED_PREFIX = '[erased ';

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

/** The marker that takes a sealed value's place once its key is gone: a digest of the ciphertext, nothing of the text. */
export function erasedMarker(sealed: string): string {
  return `${ERASED_PREFIX}${hash('sha256', sealed, 'hex').slice(0, 12)}]`;
}

/**
 * One account's personal values, sealed with AES-256-GCM under its data key. The IV is synthetic (an HMAC of the
 * value under a second key from the same data key), so one value seals to one text within an account: equal URLs stay
 * equal once erased (a batch still matches its videos) and a retried append writes the same bytes. The price, that
 * equal values are visible as equal within one account's events, is what the markers must keep anyway.
 */
export class PersonalDataCipher {
  private readonly encryptionKey: Buffer;
  private readonly ivKey: Buffer;

  constructor(dataKey: Buffer) {
    if (dataKey.length !== 32) throw new Error('A data key must be 32 bytes');
    this.encryptionKey = subKey(dataKey, 'encryption');
    this.ivKey = subKey(dataKey, 'synthetic-iv');
  }

  /** Strings seal as text, anything else as its JSON; a sealed value is left as it is. */
  seal(value: unknown): string {
    if (isSealed(value)) return value;
    const kind = typeof value === 'string' ? 's' : 'j';
    const text = kind === 's' ? (value as string) : JSON.stringify(value);
    const iv = createHmac('sha256', this.ivKey).update(kind).update(text).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${kind}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  /** What `seal` was given; anything not sealed is returned as it is (events written before sealing). */
  open(value: unknown): unknown {
    if (!isSealed(value)) return value;
    const kind = value.charAt(SEALED_PREFIX.length);
    const bytes = Buffer.from(value.slice(SEALED_PREFIX.length + 2), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
    return kind === 's' ? text : JSON.parse(text);
  }
}

function subKey(dataKey: Buffer, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), `video-download-service:personal-data:${purpose}`, 32),
  );
}
