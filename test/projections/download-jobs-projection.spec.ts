import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { RecordedEvent } from '../../application/ports/event-store.js';
import { createKnex } from '../../infrastructure/postgres/create-knex.js';
import { migrateReadModels } from '../../infrastructure/postgres/read-model-schema.js';
import { downloadJobsProjection } from '../../projections/download-jobs-projection.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';
import { READ_MODEL_SCHEMA } from '../../infrastructure/features/features.js';

const ACCOUNT = 'account-1';

function history(jobId: string, outcome: 'completed' | 'failed'): RecordedEvent[] {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, second)).toISOString();
  const data: Array<[string, Record<string, unknown>]> = [
    [
      'DownloadRequested',
      {
        jobId,
        accountId: ACCOUNT,
        url: `https://www.youtube.com/watch?v=${jobId.slice(0, 11)}`,
        format: 'audio',
        startTime: null,
        endTime: null,
        language: null,
        webhookUrl: null,
        title: `Title ${jobId}`,
        duration: 42,
        maxFileSizeBytes: 1e9,
        requestedAt: at(0),
      },
    ],
    ['DownloadStarted', { jobId, accountId: ACCOUNT, attempt: 1, startedAt: at(1) }],
    ['DownloadAttemptFailed', { jobId, accountId: ACCOUNT, attempt: 1, reason: 'reset', failedAt: at(2) }],
    ['DownloadStarted', { jobId, accountId: ACCOUNT, attempt: 2, startedAt: at(3) }],
    outcome === 'completed'
      ? [
          'DownloadCompleted',
          {
            jobId,
            accountId: ACCOUNT,
            fileKey: `${ACCOUNT}/${jobId}.2.m4a`,
            fileSize: 1234,
            actualFormat: 'audio',
            mimeType: 'audio/mp4',
            fileExtension: 'm4a',
            completedAt: at(4),
          },
        ]
      : [
          'DownloadFailed',
          { jobId, accountId: ACCOUNT, errorCode: 'PRIVATE_VIDEO', reason: 'Private video', failedAt: at(4) },
        ],
  ];
  return data.map(([type, eventData], revision) => ({
    id: randomUUID(),
    type,
    streamName: `download-${jobId}`,
    revision,
    position: `${revision}`,
    data: eventData,
    metadata: {},
    createdAt: new Date(),
  }));
}

/** Two jobs' histories interleaved, as concurrent jobs arrive in the global order. */
function interleaved(a: RecordedEvent[], b: RecordedEvent[]): RecordedEvent[] {
  return a.flatMap((event, i) => [event, b[i]]);
}

describe('download_jobs projection: batches', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase('download_jobs_projection');
    db = createKnex(database.url);
    await migrateReadModels(db, READ_MODEL_SCHEMA);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => db('download_jobs').truncate());

  const apply = (events: RecordedEvent[]) => db.transaction((trx) => downloadJobsProjection.apply(trx, events));
  const rows = async () => db('download_jobs').orderBy('job_id');

  it('writes a whole history in one batch as it writes it one event per batch', async () => {
    const events = interleaved(history('job-a', 'completed'), history('job-b', 'failed'));
    for (const event of events) await apply([event]);
    const oneByOne = await rows();
    await db('download_jobs').truncate();
    await apply(events);
    assert.deepEqual(await rows(), oneByOne);
    const [a, b] = oneByOne;
    assert.equal(a.status, 'COMPLETED');
    assert.equal(a.started_at.toISOString(), '2026-01-01T12:00:01.000Z', 'the first start stays');
    assert.equal(Number(a.last_revision), 4);
    assert.equal(b.status, 'FAILED');
    assert.equal(b.error_code, 'PRIVATE_VIDEO');
  });

  it('brings a row forward when a batch replays its history from the start, and never moves it back', async () => {
    const events = history('job-c', 'completed');
    await apply(events.slice(0, 2));
    assert.equal((await rows())[0].status, 'IN_PROGRESS');
    await apply(events);
    const completed = await rows();
    assert.equal(completed[0].status, 'COMPLETED');
    await apply(events.slice(0, 2));
    await apply(events.slice(0, 1));
    assert.deepEqual(await rows(), completed);
  });
});
