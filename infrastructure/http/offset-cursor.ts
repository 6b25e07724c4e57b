import { HttpError } from './http-error.js';

/** The opaque `nextCursor` of a page that ends at `offset`. */
function encodeOffsetCursor(offset: number): string {
  return Buffer.from(`v1:${offset}`).toString('base64url');
}

/** The position a cursor names, or null for one this service did not give. */
function decodeOffsetCursor(cursor: string): number | null {
  const match = /^v1:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match === null ? null : Number(match[1]);
}

/** The position a page's `cursor` query names (0 without one); one this service did not give answers 400. */
export function pageOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = decodeOffsetCursor(cursor);
  if (offset === null) throw new HttpError(400, 'cursor is malformed: pass the nextCursor of a previous page as given');
  return offset;
}

/** The cursor of the page after one ending at `end`, or null when nothing of the `total` is left. */
export function nextOffsetCursor(end: number, total: number): string | null {
  return end < total ? encodeOffsetCursor(end) : null;
}
