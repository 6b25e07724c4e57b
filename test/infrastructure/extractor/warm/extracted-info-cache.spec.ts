import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { PostgresExtractedInfoCache } from '../../../../infrastructure/extractor/warm/extracted-info-cache.js';
import { createKnex } from '../../../../infrastructure/postgres/create-knex.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';

/** A page as yt-dlp's -J prints it after a signed-in extraction: cookies and headers on the page, its formats and its requested downloads. */
const SECRET_HEADERS = {
  Cookie: 'SID=secret-session',
  Authorization: 'Bearer secret-token',
  'X-Goog-Visitor-Id': 'secret-visitor',
};
const PAGE = {
  id: 'abc',
  title: 'A video',
  duration: 6,
  cookies: 'SID=secret-session; Domain=.example.com',
  http_headers: { 'User-Agent': 'Mozilla/5.0', Referer: 'https://www.example.com/', ...SECRET_HEADERS },
  formats: [
    {
      format_id: '18',
      url: 'https://media.example.com/v.mp4',
      cookies: 'SID=secret-session',
      http_headers: { 'User-Agent': 'Mozilla/5.0', Accept: '*/*', ...SECRET_HEADERS },
      fragments: [{ url: 'https://media.example.com/1.ts', duration: 2 }],
    },
  ],
  requested_downloads: [{ format_id: '18', cookies: 'SID=secret-session', http_headers: { ...SECRET_HEADERS } }],
};

describe('extracted-info cache', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let cache: PostgresExtractedInfoCache;

  before(async () => {
    database = await createTestDatabase('extracted_info');
    db = createKnex(database.url, 2);
    cache = new PostgresExtractedInfoCache(db, 60_000);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('stores a page without its cookies or secret-bearing request headers, at any depth', async () => {
    await cache.remember('https://www.example.com/watch?v=abc', 'jar-1', JSON.stringify(PAGE));
    const { rows } = await db.raw<{ rows: Array<{ info: string }> }>('SELECT info FROM extracted_video_info');
    assert.equal(rows.length, 1);
    for (const secret of ['secret-session', 'secret-token', 'secret-visitor', 'Cookie', 'Authorization', '"cookies"']) {
      assert.ok(!rows[0].info.includes(secret), `${secret} is at rest: ${rows[0].info}`);
    }
  });

  it('keeps what the download needs: the formats, their URLs and fragments, and the harmless headers', async () => {
    await cache.remember('https://www.example.com/watch?v=abc', 'jar-2', JSON.stringify(PAGE));
    const recalled = JSON.parse((await cache.recall('https://www.example.com/watch?v=abc', 'jar-2')) ?? 'null');
    assert.deepEqual(recalled, {
      id: 'abc',
      title: 'A video',
      duration: 6,
      http_headers: { 'User-Agent': 'Mozilla/5.0', Referer: 'https://www.example.com/' },
      formats: [
        {
          format_id: '18',
          url: 'https://media.example.com/v.mp4',
          http_headers: { 'User-Agent': 'Mozilla/5.0', Accept: '*/*' },
          fragments: [{ url: 'https://media.example.com/1.ts', duration: 2 }],
        },
      ],
      requested_downloads: [{ format_id: '18', http_headers: {} }],
    });
  });
});
