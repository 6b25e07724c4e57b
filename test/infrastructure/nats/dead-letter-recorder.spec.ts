import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { NatsConnection } from 'nats';
import type { AnomalyKind } from '../../../application/ports/anomalies.js';
import type { Logger } from '../../../application/ports/logger.js';
import { connectToNats, ensureWorkQueueStream } from '../../../infrastructure/nats/connection.js';
import { DEAD_LETTER_TABLE, DeadLetterRecorder } from '../../../infrastructure/nats/dead-letter-recorder.js';
import { WorkQueueConsumer } from '../../../infrastructure/nats/work-queue-consumer.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('dead letters (JetStream advisories)', () => {
  const suffix = randomBytes(4).toString('hex');
  const stream = `DLTEST_${suffix}`;
  let nc: NatsConnection;
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    nc = await connectToNats({ url: NATS_URL, name: 'dead-letter-recorder.spec' });
    await ensureWorkQueueStream(await nc.jetstreamManager(), {
      name: stream,
      subjects: [`${stream}.>`],
      duplicateWindowMs: 60_000,
    });
    database = await createTestDatabase('dead_letters');
    db = createKnex(database.url);
  });

  after(async () => {
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
    await db.destroy();
    await database.drop();
  });

  it('records a message whose last delivery was terminated, with its body, and counts it as an anomaly', async () => {
    const jsm = await nc.jetstreamManager();
    const anomalies: AnomalyKind[] = [];
    const recorder = new DeadLetterRecorder({
      nc,
      jsm,
      db,
      stream,
      anomalies: { record: (kind) => anomalies.push(kind) },
      logger: silent,
    });
    await recorder.start();
    const consumer = new WorkQueueConsumer({
      js: nc.jetstream(),
      jsm,
      stream,
      subject: `${stream}.work`,
      logger: silent,
      maxDeliver: 1,
      pullExpiresMs: 1_000,
      handler: async () => ({ retryAfterMs: 10 }),
    });
    try {
      await consumer.start();
      await nc.jetstream().publish(`${stream}.work`, JSON.stringify({ jobId: 'j1', accountId: 'a1' }));
      const deadline = Date.now() + 10_000;
      let rows: Array<{ reason: string; subject: string | null; consumer: string }> = [];
      while (rows.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        rows = await db(DEAD_LETTER_TABLE).select('reason', 'subject', 'consumer', 'body');
      }
      assert.equal(rows.length, 1);
      assert.equal(rows[0].reason, 'terminated');
      assert.equal(rows[0].consumer, consumer.durableName);
      assert.deepEqual(anomalies, ['dead_letter']);
    } finally {
      await consumer.stop();
      await recorder.stop();
    }
  });

  it('records a dead letter whose recording failed (PostgreSQL out of reach) once it can', async () => {
    const jsm = await nc.jetstreamManager();
    const problems: string[] = [];
    const note = (_details: unknown, message: string) => void problems.push(message);
    const logger: Logger = { ...silent, warn: note, error: note };
    const recorder = new DeadLetterRecorder({ nc, jsm, db, stream, anomalies: { record: () => undefined }, logger });
    await recorder.start();
    const consumer = new WorkQueueConsumer({
      js: nc.jetstream(),
      jsm,
      stream,
      subject: `${stream}.later`,
      logger: silent,
      maxDeliver: 1,
      pullExpiresMs: 1_000,
      handler: async () => ({ retryAfterMs: 10 }),
    });
    const waitUntil = async (what: string, check: () => Promise<boolean> | boolean) => {
      const deadline = Date.now() + 15_000;
      while (!(await check())) {
        assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const recorded = async () =>
      (await db(DEAD_LETTER_TABLE).where({ consumer: consumer.durableName }).select('reason')).length;
    try {
      await db.raw(`ALTER TABLE ${DEAD_LETTER_TABLE} RENAME TO dead_letters_away`);
      await consumer.start();
      await nc.jetstream().publish(`${stream}.later`, JSON.stringify({ jobId: 'j2', accountId: 'a1' }));
      await waitUntil('a failed recording', () => problems.length > 0);
      await db.raw(`ALTER TABLE dead_letters_away RENAME TO ${DEAD_LETTER_TABLE}`);
      await waitUntil('the dead letter recorded', async () => (await recorded()) === 1);
    } finally {
      await db.raw(`ALTER TABLE IF EXISTS dead_letters_away RENAME TO ${DEAD_LETTER_TABLE}`);
      await consumer.stop();
      await recorder.stop();
    }
  });
});
