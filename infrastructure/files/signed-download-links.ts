import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DownloadLinks } from '../../application/ports/download-links.js';

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
 * lookup. Expiry is rounded up to the minute so repeated polls return the same URL.
 */
export class SignedDownloadLinks implements DownloadLinks {
  private readonly recentLinks = new Map<string, { expires: number; link: string }>();

  constructor(
    private readonly signingKey: Buffer,
    private readonly publicBaseUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  linkFor(file: { jobId: string; fileKey: string; filename: string }, now: Date): string {
    const expires = Math.ceil((now.getTime() / 1000 + this.ttlSeconds) / 60) * 60;
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
  verify(encodedKey: string, filename: string, expires: string | undefined, signature: string | undefined, now: Date): VerifiedLink | null {
    // Only the spelling linkFor writes is accepted: no padding, no standard-alphabet characters, no leading zeros.
    if (expires === undefined || signature === undefined || !/^[1-9]\d{0,11}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return null;
    if (!/^[A-Za-z0-9_-]+$/.test(encodedKey)) return null;
    const expiresAt = Number(expires);
    if (expiresAt * 1000 < now.getTime()) return null;
    const fileKey = Buffer.from(encodedKey, 'base64url').toString('utf8');
    if (Buffer.from(fileKey, 'utf8').toString('base64url') !== encodedKey) return null;
    const expected = Buffer.from(this.sign(fileKey, filename, expiresAt), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return null;
    return { fileKey, filename };
  }

  private sign(fileKey: string, filename: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`${fileKey}\n${filename}\n${expires}`).digest('hex');
  }
}
