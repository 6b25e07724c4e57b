import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { RecordedEvent } from '../../application/ports/event-store.js';
import { READ_MODEL_SCHEMA } from '../../infrastructure/features/features.js';
import { createKnex } from '../../infrastructure/postgres/create-knex.js';
import { migrateReadModels } from '../../infrastructure/postgres/read-model-schema.js';
import { failingWebhookDeliveriesProjection } from '../../projections/failing-webhook-deliveries-projection.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second)).toISOString();

function event(streamName: string, type: string, data: Record<string, unknown>): RecordedEvent {
  return { id: randomUUID(), type, streamName, revision: 0, position: '0', data, metadata: {}, createdAt: new Date() };
}

const ids = { jobId: 'j1', accountId: 'a1' };
const started = (attempt: number) =>
  event('downloadJob-j1', 'WebhookAttemptStarted', {
    ...ids,
    attempt,
    event: 'download.finished',
    url: 'https://hooks.example/x',
    workerId: 'w',
    startedAt: at(attempt),
    deadline: at(attempt + 30),
  });
const failed = (attempt: number, nextAttemptAt: string | null) =>
  event('downloadJob-j1', 'WebhookAttemptFailed', {
    ...ids,
    attempt,
    statusCode: 503,
    errorClass: 'http_status',
    detail: null,
    durationMs: 12,
    finishedAt: at(attempt + 1),
    nextDelayMs: nextAttemptAt === null ? null : 1000,
    nextAttemptAt,
  });

describe('failing_webhook_deliveries projection', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase('failing_webhooks_projection');
    db = createKnex(database.url);
    await migrateReadModels(db, READ_MODEL_SCHEMA);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => db('failing_webhook_deliveries').truncate());

  const apply = (events: RecordedEvent[]) =>
    db.transaction((trx) => failingWebhookDeliveriesProjection.apply(trx, events));
  const failing = () => db('failing_webhook_deliveries').whereNotNull('failed_at');

  it('lists a delivery once an attempt fails, with its URL, answer and next attempt; a success removes it', async () => {
    await apply([started(1)]);
    assert.equal((await failing()).length, 0, 'an attempt under way is not a failure');
    await apply([failed(1, at(10))]);
    const [row] = await failing();
    assert.equal(row.url, 'https://hooks.example/x');
    assert.equal(row.event, 'download.finished');
    assert.equal(row.status_code, 503);
    assert.equal(row.state, 'retrying');
    assert.equal(row.attempts, 1);
    await apply([
      started(2),
      failed(2, null),
      event('downloadJob-j1', 'WebhookDeliveryGaveUp', { ...ids, attempts: 2, gaveUpAt: at(5) }),
    ]);
    const [gaveUp] = await failing();
    assert.deepEqual([gaveUp.state, gaveUp.attempts, gaveUp.next_attempt_at], ['gave_up', 2, null]);
    await apply([
      started(3),
      event('downloadJob-j1', 'WebhookAttemptSucceeded', {
        ...ids,
        attempt: 3,
        statusCode: 200,
        durationMs: 5,
        finishedAt: at(9),
      }),
    ]);
    assert.equal((await db('failing_webhook_deliveries')).length, 0);
  });
});
