import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DownloadLinks } from '../../application/ports/download-links.js';
import { fileDeletedAt, linkExpiresAt } from './link-expiry.js';
import { type FileReference, SealedFileReferences } from './sealed-file-reference.js';

export const FILES_ROUTE_PREFIX = '/files';

/** Links kept for reuse within their minute; older ones are dropped first. */
const RECENT_LINKS = 1_000;

/** A link signed here, whether or not it has expired. */
export interface OpenedLink extends FileReference {
  filename: string;
  /** Unix seconds. */
  expiresAt: number;
}

/**
 * Download URLs are capabilities: `/files/<sealed file reference>/<filename>?expires=<unix s>&signature=<hex>`,
 * signed with HMAC-SHA256 over the reference, filename and expiry. The reference is opaque (see SealedFileReferences):
 * the link names neither account nor job, and carries when the file's retention ends, so serving one needs no lookup.
 * Expiry is rounded up to the minute so repeated polls return the same URL, and is never later than the file's deletion.
 */
export class SignedDownloadLinks implements DownloadLinks {
  private readonly recentLinks = new Map<string, { expires: number; link: string }>();
  private readonly references: SealedFileReferences;

  constructor(
    private readonly signingKey: Buffer,
    private readonly publicBaseUrl: string,
    private readonly ttlSeconds: number,
    /** FILE_RETENTION_SECONDS; 0 keeps files for ever. */
    private readonly retentionSeconds: number,
  ) {
    this.references = new SealedFileReferences(signingKey);
  }

  linkFor(file: { jobId: string; fileKey: string; filename: string; completedAt: string | null }, now: Date): string {
    const expires = linkExpiresAt(now, this.ttlSeconds, file, this.retentionSeconds);
    // A file is polled many times a minute and its link only changes each minute: sign it once per minute.
    const cacheKey = `${file.fileKey}\n${file.filename}`;
    const cached = this.recentLinks.get(cacheKey);
    if (cached !== undefined && cached.expires === expires) return cached.link;
    const reference = this.references.seal({
      fileKey: file.fileKey,
      deletedAt: fileDeletedAt(file, this.retentionSeconds),
    });
    const signature = this.sign(reference, file.filename, expires);
    const link = `${this.publicBaseUrl}${FILES_ROUTE_PREFIX}/${reference}/${encodeURIComponent(file.filename)}?expires=${expires}&signature=${signature}`;
    this.recentLinks.delete(cacheKey);
    this.recentLinks.set(cacheKey, { expires, link });
    if (this.recentLinks.size > RECENT_LINKS) this.recentLinks.delete(this.recentLinks.keys().next().value as string);
    return link;
  }

  /** What a link signed here names, expired or not; null for a link altered or not signed here. */
  open(
    reference: string,
    filename: string,
    expires: string | undefined,
    signature: string | undefined,
  ): OpenedLink | null {
    // Only the spelling linkFor writes is accepted: no leading zeros, lowercase hex.
    if (
      expires === undefined ||
      signature === undefined ||
      !/^[1-9]\d{0,11}$/.test(expires) ||
      !/^[0-9a-f]{64}$/.test(signature)
    )
      return null;
    const expiresAt = Number(expires);
    const expected = Buffer.from(this.sign(reference, filename, expiresAt), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return null;
    const file = this.references.open(reference);
    return file === null ? null : { ...file, filename, expiresAt };
  }

  private sign(reference: string, filename: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`${reference}\n${filename}\n${expires}`).digest('hex');
  }
}
