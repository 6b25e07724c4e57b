import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/** What a download link carries about its file, readable only by the service. */
export interface FileReference {
  fileKey: string;
  /** When the file's retention ends (Unix seconds); null when it is kept for ever. */
  deletedAt: number | null;
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A download link's path segment: the file key (`<accountId>/<jobId>.…`) and its retention end, encrypted and
 * authenticated (AES-256-GCM), so a shared link reveals neither account nor job. The nonce is an HMAC of the content
 * (a synthetic nonce): the same file gives the same segment on every instance, so polls keep getting the same URL, and
 * two different contents never share a nonce.
 */
export class SealedFileReferences {
  private readonly encryptionKey: Buffer;
  private readonly nonceKey: Buffer;

  constructor(linkKey: Buffer) {
    this.encryptionKey = createHmac('sha256', linkKey).update('download link file reference: encryption').digest();
    this.nonceKey = createHmac('sha256', linkKey).update('download link file reference: nonce').digest();
  }

  seal(reference: FileReference): string {
    const plain = Buffer.from(`${reference.deletedAt ?? 0}\n${reference.fileKey}`, 'utf8');
    const nonce = this.nonceOf(plain);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, nonce);
    const sealed = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return sealed.toString('base64url');
  }

  /** Null for anything not sealed here, altered, or spelled otherwise than `seal` writes it. */
  open(segment: string): FileReference | null {
    if (!/^[A-Za-z0-9_-]+$/.test(segment) || segment.length > 2_048) return null;
    const sealed = Buffer.from(segment, 'base64url');
    if (sealed.toString('base64url') !== segment || sealed.length <= NONCE_BYTES + TAG_BYTES) return null;
    const nonce = sealed.subarray(0, NONCE_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, nonce);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([
        decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      return null;
    }
    if (!timingSafeEqual(this.nonceOf(plain), nonce)) return null;
    const text = plain.toString('utf8');
    const newline = text.indexOf('\n');
    const deletedAt = Number(text.slice(0, newline));
    return { fileKey: text.slice(newline + 1), deletedAt: deletedAt === 0 ? null : deletedAt };
  }

  private nonceOf(plain: Buffer): Buffer {
    return createHmac('sha256', this.nonceKey).update(plain).digest().subarray(0, NONCE_BYTES);
  }
}
