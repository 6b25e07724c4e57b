import assert from 'node:assert/strict';
import pg from 'pg';
import {
  TIMESTAMPS_AS_ISO_TEXT,
  timestamptzTextAsIso,
} from '../../../infrastructure/postgres/timestamps-as-iso-text.js';
import { TEST_POSTGRES_URL } from '../../support/postgres.js';

const VALUES = [
  '2026-11-24T08:24:25.123Z',
  '2026-11-24T08:24:25.000Z',
  '2026-11-24T08:24:25.100Z',
  '2026-11-24T08:24:25.010Z',
  '2026-02-28T23:59:59.999Z',
  '1970-01-01T00:00:00.000Z',
  '0500-06-15T12:00:00.001Z',
];

describe('timestamptz columns read as ISO text', () => {
  const defaultParser = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;

  it('writes what a Date parsed by pg would, for UTC text of every precision, other offsets and BC years', () => {
    const texts = [
      '2026-11-24 08:24:25.123456+00',
      '2026-11-24 08:24:25.1234+00',
      '2026-11-24 08:24:25.5+00',
      '2026-11-24 08:24:25+00',
      '2026-11-24 08:24:25.123+01',
      '2026-11-24 08:24:25.123-05:30',
      '0044-03-15 12:00:00+00 BC',
      '12026-01-01 00:00:00+00',
    ];
    for (const text of texts) assert.equal(timestamptzTextAsIso(text), defaultParser(text).toISOString(), text);
  });

  for (const timeZone of ['UTC', 'Europe/Paris', 'America/St_Johns']) {
    it(`reads the same instants as pg's Dates in a session whose time zone is ${timeZone}`, async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`SET TIME ZONE '${timeZone}'`);
        const text = 'SELECT v::timestamptz AS at FROM unnest($1::text[]) AS v';
        const asText = await client.query<{ at: string }>({ text, values: [VALUES], types: TIMESTAMPS_AS_ISO_TEXT });
        const asDates = await client.query<{ at: Date }>({ text, values: [VALUES] });
        assert.deepEqual(
          asText.rows.map((row) => row.at),
          asDates.rows.map((row) => row.at.toISOString()),
        );
        assert.deepEqual(
          asText.rows.map((row) => row.at),
          VALUES,
        );
      } finally {
        await client.end();
      }
    });
  }
});
