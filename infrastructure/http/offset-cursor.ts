/** The opaque `nextCursor` of a page that ends at `offset`. */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(`v1:${offset}`).toString('base64url');
}

/** The position a cursor names, or null for one this service did not give. */
export function decodeOffsetCursor(cursor: string): number | null {
  const match = /^v1:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match === null ? null : Number(match[1]);
}
