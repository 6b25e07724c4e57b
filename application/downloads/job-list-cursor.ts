import type { DownloadJobListPosition } from '../ports/read-models.js';

/**
 * The opaque `cursor` of GET /downloads: the last job of a page, as
 * base64url JSON. Clients must not build one; a string that does not decode
 * to a position is malformed (null), never a query.
 */
export function encodeJobListCursor(position: DownloadJobListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.jobId]), 'utf8').toString('base64url');
}

export function decodeJobListCursor(cursor: string): DownloadJobListPosition | null {
  if (cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [createdAt, jobId] = parsed as unknown[];
  if (typeof createdAt !== 'string' || typeof jobId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(jobId)) return null;
  return isServiceInstant(createdAt) ? { createdAt, jobId } : null;
}

/**
 * Only what the service itself writes: an ISO instant in years 1 to 9999 whose date and time read back unchanged.
 * `Date.parse` rolls 2026-02-30 over to March and takes year 0, which PostgreSQL refuses: neither may reach a query.
 */
function isServiceInstant(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(text)) return false;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return false;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 && date.toISOString().slice(0, 19) === text.slice(0, 19);
}
