import assert from 'node:assert/strict';
import { decodeJobListCursor, encodeJobListCursor } from '../../../application/downloads/job-list-cursor.js';

const cursorOf = (createdAt: unknown, jobId: unknown = 'job-1'): string =>
  Buffer.from(JSON.stringify([createdAt, jobId]), 'utf8').toString('base64url');

describe('GET /downloads cursor', () => {
  it('decodes what it encodes, to the microsecond PostgreSQL keeps', () => {
    for (const createdAt of ['2026-02-28T23:59:59Z', '2024-02-29T00:00:00.123456Z', '0001-01-01T00:00:00Z']) {
      const position = { createdAt, jobId: 'job-1' };
      assert.deepEqual(decodeJobListCursor(encodeJobListCursor(position)), position);
    }
  });

  it('refuses a date or time that does not exist, or a year PostgreSQL cannot hold, as malformed', () => {
    for (const createdAt of [
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-04-31T12:00:00.5Z',
      '0000-01-01T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
    ]) {
      assert.equal(decodeJobListCursor(cursorOf(createdAt)), null, createdAt);
    }
  });
});
