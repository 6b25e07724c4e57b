import parseRange from 'range-parser';

export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

export interface RangeRequest {
  /** The Range header, '' when absent. */
  range: string;
  /** The If-Range header, '' when absent. */
  ifRange: string;
}

const BYTE_RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * What to send for a request's Range (RFC 9110 §14): the whole file when
 * there is no Range, when If-Range names another version, when the unit is
 * not bytes, when the header is malformed (`bytes=100-0` included: a
 * syntactically invalid range is ignored), or when it asks for several
 * ranges (a multipart body is not worth it); one range when it asks for one
 * that overlaps the file; unsatisfiable when it asks only beyond the end.
 */
export function answerRange(
  request: RangeRequest,
  file: { size: number; etag: string; lastModified: string | null },
): RangeAnswer {
  if (request.range === '') return { kind: 'whole' };
  if (request.ifRange !== '' && !ifRangeMatches(request.ifRange, file)) return { kind: 'whole' };
  const match = /^bytes=(.+)$/i.exec(request.range.trim());
  if (match === null) return { kind: 'whole' };
  const specs = match[1].split(',').map((spec) => spec.trim());
  for (const spec of specs) {
    const parts = BYTE_RANGE_SPEC.exec(spec);
    if (parts === null) return { kind: 'whole' };
    if (parts[1] !== undefined && parts[2] !== '' && Number(parts[2]) < Number(parts[1])) return { kind: 'whole' };
  }
  if (specs.length > 1) return { kind: 'whole' };
  const ranges = parseRange(file.size, `bytes=${specs[0]}`);
  if (ranges === -1) return { kind: 'unsatisfiable' };
  if (ranges === -2 || ranges.length !== 1) return { kind: 'whole' };
  return { kind: 'partial', start: ranges[0].start, end: ranges[0].end };
}

/** A strong ETag compares exactly; a date must equal Last-Modified exactly (a weak ETag never matches). */
function ifRangeMatches(ifRange: string, file: { etag: string; lastModified: string | null }): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === file.etag;
  return file.lastModified !== null && value === file.lastModified;
}
