import pg from 'pg';

const TIMESTAMPTZ_OID = 1184;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date;
/** `2026-11-24 08:24:25.123456+00`: what PostgreSQL writes for a timestamptz when the session's time zone is UTC. */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as `Date#toISOString` writes it (UTC, milliseconds), straight
 * from PostgreSQL's text when it is in UTC, which saves the hot read paths
 * building a Date per column; any other spelling (another session time zone,
 * years outside 1000-9999, infinity) goes through pg's own parser.
 */
export function timestamptzTextAsIso(text: string): string {
  const utc = UTC_TIMESTAMP.exec(text);
  if (utc === null) return parseTimestamptz(text).toISOString();
  const [, date, time, fraction = ''] = utc;
  return `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}Z`;
}

/** Type parsers for a pool or query whose timestamptz columns should arrive as ISO text rather than Dates. */
export const TIMESTAMPS_AS_ISO_TEXT = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return oid === TIMESTAMPTZ_OID && format !== 'binary' ? timestamptzTextAsIso : pg.types.getTypeParser(oid, format);
  },
};

/** A timestamp column read with TIMESTAMPS_AS_ISO_TEXT, or as a Date where those parsers do not apply (PGlite). */
export function isoTimestamp(value: string | Date): string {
  return typeof value === 'string' ? value : value.toISOString();
}
