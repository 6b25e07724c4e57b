import type { Knex } from 'knex';

/** A bound parameter: knex would take the `?` in a literal for a placeholder. */
const VIDEO_URL = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

/**
 * Rows written straight into the PostgreSQL event store, in batches (so the
 * history spans many transaction ids, as appends do): far faster than
 * commands, and what a reader reads is the same.
 */
export async function seedJobStreams(db: Knex, jobs: number, accountId: string, batch = 10_000): Promise<void> {
  for (let first = 0; first < jobs; first += batch) {
    const last = Math.min(jobs, first + batch) - 1;
    await db.raw(
      `INSERT INTO es_events (stream_name, stream_revision, event_id, event_type, data, metadata)
       SELECT 'download-seed' || j, e, gen_random_uuid(),
              (ARRAY['DownloadRequested', 'DownloadStarted', 'DownloadCompleted'])[e + 1],
              CASE e
                WHEN 0 THEN jsonb_build_object('jobId', 'seed' || j, 'accountId', ?::text, 'url', ?::text, 'format', '720',
                  'startTime', null, 'endTime', null, 'language', null, 'webhookUrl', null, 'title', 'A seeded video of ordinary title length',
                  'duration', 213, 'maxFileSizeBytes', 2000000000, 'requestedAt', now()::text)
                WHEN 1 THEN jsonb_build_object('jobId', 'seed' || j, 'accountId', ?::text, 'attempt', 1, 'startedAt', now()::text)
                ELSE jsonb_build_object('jobId', 'seed' || j, 'accountId', ?::text, 'fileKey', 'seed' || j || '/media.mp4', 'fileSize', 48123456,
                  'actualFormat', '720', 'mimeType', 'video/mp4', 'fileExtension', 'mp4', 'completedAt', now()::text)
              END,
              jsonb_build_object('correlationId', gen_random_uuid(), 'commandType', 'Seed')
       FROM generate_series(?::int, ?::int) AS j, generate_series(0, 2) AS e
       ORDER BY j, e`,
      [accountId, VIDEO_URL, accountId, accountId, first, last],
    );
    await db.raw(
      `INSERT INTO es_streams (stream_name, category, revision) SELECT 'download-seed' || j, 'download', 2 FROM generate_series(?::int, ?::int) AS j ON CONFLICT DO NOTHING`,
      [first, last],
    );
  }
}

/** A busy account's history: `count` more events (reservations and charges, alternating) on its stream. */
export async function seedAccountHistory(db: Knex, accountId: string, count: number, batch = 10_000): Promise<void> {
  const stream = `account-${accountId}`;
  const { revision } = (await db('es_streams').where('stream_name', stream).first<{ revision: string }>()) as {
    revision: string;
  };
  const start = Number(revision) + 1;
  for (let first = 0; first < count; first += batch) {
    const last = Math.min(count, first + batch) - 1;
    await db.raw(
      `INSERT INTO es_events (stream_name, stream_revision, event_id, event_type, data, metadata)
       SELECT ?::text, ?::bigint + g, gen_random_uuid(),
              CASE WHEN g % 2 = 0 THEN 'DownloadReserved' ELSE 'BandwidthCharged' END,
              CASE WHEN g % 2 = 0 THEN jsonb_build_object('accountId', ?::text, 'jobId', 'busy' || (g / 2), 'reservedAt', now()::text)
                   ELSE jsonb_build_object('accountId', ?::text, 'jobId', 'busy' || (g / 2), 'fileSizeBytes', 31000000, 'bandwidthMb', 31, 'downloads', 1, 'chargedAt', now()::text)
              END,
              jsonb_build_object('correlationId', gen_random_uuid(), 'commandType', 'Seed')
       FROM generate_series(?::int, ?::int) AS g ORDER BY g`,
      [stream, start, accountId, accountId, first, last],
    );
  }
  await db('es_streams')
    .where('stream_name', stream)
    .update({ revision: start + count - 1 });
}

/** One million (or `rows`) polling rows written straight into the read model. */
export async function seedDownloadJobRows(db: Knex, rows: number, accountId: string, batch = 50_000): Promise<void> {
  for (let first = 0; first < rows; first += batch) {
    await db.raw(
      `INSERT INTO download_jobs (job_id, account_id, status, url, format, language, title, duration, webhook_url, actual_format, file_key, file_size,
                                  file_extension, error_code, failure_reason, created_at, started_at, completed_at, last_revision)
       SELECT md5(j::text), ?::text, 'COMPLETED', ?::text, '720', null, 'A seeded video of ordinary title length', 213, null,
              '720', md5(j::text) || '/media.mp4', 48123456, 'mp4', null, null, now(), now(), now(), 2
       FROM generate_series(?::int, ?::int) AS j`,
      [accountId, VIDEO_URL, first, Math.min(rows, first + batch) - 1],
    );
  }
  // Vacuumed and checkpointed now, so neither autovacuum nor the flush of the fresh rows runs while the bench measures.
  await db.raw('VACUUM ANALYZE download_jobs');
  await db.raw('CHECKPOINT');
}
