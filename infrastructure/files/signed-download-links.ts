import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DownloadLinks } from '../../application/ports/download-links.js';
import { linkExpiresAt } from './link-expiry.js';

export const FILES_ROUTE_PREFIX = '/files';

/** Links kept for reuse within their minute; older ones are dropped first. */
const RECENT_LINKS = 1_000;

export interface VerifiedLink {
  fileKey: string;
  filename: string;
}

/**
 * Download URLs are capabilities: `/files/<fileKey, base64url>/<filename>?expires=<unix s>&signature=<hex>`,
 * signed with HMAC-SHA256 over key, filename and expiry. Serving one needs no
 * lookup. Expiry is rounded up to the minute so repeated polls return the same URL,
 * and is never later than the file's deletion.
 */
export class SignedDownloadLinks implements DownloadLinks {
  private readonly recentLinks = new Map<string, { expires: number; link: string }>();

  constructor(
    private readonly signingKey: Buffer,
    private readonly publicBaseUrl: string,
    private readonly ttlSeconds: number,
    /** FILE_RETENTION_SECONDS; 0 keeps files for ever. */
    private readonly retentionSeconds: number,
  ) {}

  linkFor(file: { jobId: string; fileKey: string; filename: string; completedAt: string | null }, now: Date): string {
    const expires = linkExpiresAt(now, this.ttlSeconds, file, this.retentionSeconds);
    // A file is polled many times a minute and its link only changes each minute: sign it once per minute.
    const cacheKey = `${file.fileKey}\n${file.filename}`;
    const cached = this.recentLinks.get(cacheKey);
    if (cached !== undefined && cached.expires === expires) return cached.link;
    const encodedKey = Buffer.from(file.fileKey, 'utf8').toString('base64url');
    const signature = this.sign(file.fileKey, file.filename, expires);
    const link = `${this.publicBaseUrl}${FILES_ROUTE_PREFIX}/${encodedKey}/${encodeURIComponent(file.filename)}?expires=${expires}&signature=${signature}`;
    this.recentLinks.delete(cacheKey);
    this.recentLinks.set(cacheKey, { expires, link });
    if (this.recentLinks.size > RECENT_LINKS) this.recentLinks.delete(this.recentLinks.keys().next().value as string);
    return link;
  }

  /** Null for a link that was not signed here, was altered, or has expired. */
  verify(
    encodedKey: string,
    filename: string,
    expires: string | undefined,
    signature: string | undefined,
    now: Date,
  ): VerifiedLink | null {
    const checked = this.check(encodedKey, filename, expires, signature);
    return checked !== null && checked.expiresAt * 1000 >= now.getTime() ? checked.link : null;
  }

  /**
   * The file a link signed here names once that link has expired; null for a
   * link still valid, altered or not signed here. An expired link's file may
   * have been deleted since, which polling again cannot undo.
   */
  expiredLinkFile(
    encodedKey: string,
    filename: string,
    expires: string | undefined,
    signature: string | undefined,
    now: Date,
  ): VerifiedLink | null {
    const checked = this.check(encodedKey, filename, expires, signature);
    return checked !== null && checked.expiresAt * 1000 < now.getTime() ? checked.link : null;
  }

  /** The link and its expiry when it was signed here, whether or not it has expired. */
  private check(
    encodedKey: string,
    filename: string,
    expires: string | undefined,
    signature: string | undefined,
  ): { link: VerifiedLink; expiresAt: number } | null {
    // Only the spelling linkFor writes is accepted: no padding, no standard-alphabet characters, no leading zeros.
    if (
      expires === undefined ||
      signature === undefined ||
      !/^[1-9]\d{0,11}$/.test(expires) ||
      !/^[0-9a-f]{64}$/.test(signature)
    )
      return null;
    if (!/^[A-Za-z0-9_-]+$/.test(encodedKey)) return null;
    const expiresAt = Number(expires);
    const fileKey = Buffer.from(encodedKey, 'base64url').toString('utf8');
    if (Buffer.from(fileKey, 'utf8').toString('base64url') !== encodedKey) return null;
    const expected = Buffer.from(this.sign(fileKey, filename, expiresAt), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return null;
    return { link: { fileKey, filename }, expiresAt };
  }

  private sign(fileKey: string, filename: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`${fileKey}\n${filename}\n${expires}`).digest('hex');
  }
}
