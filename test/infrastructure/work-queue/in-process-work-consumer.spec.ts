import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type { Logger } from '../../../application/ports/logger.js';
import type { WorkItem } from '../../../application/ports/work-queue.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { ensureDeadLetterTable } from '../../../infrastructure/postgres/dead-letter-table.js';
import { InProcessWorkConsumer } from '../../../infrastructure/work-queue/in-process-work-consumer.js';
import { WORK_QUEUE_TABLE, ensureWorkQueueTable } from '../../../infrastructure/work-queue/work-queue-schema.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('InProcessWorkConsumer: claims that fail', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase('in_process_consumer');
    db = createKnex(database.url, 2);
    await ensureWorkQueueTable(db);
    await ensureDeadLetterTable(db);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('says it cannot take work while its claims fail, and takes work again once they succeed', async () => {
    const handled: WorkItem[] = [];
    const consumer = new InProcessWorkConsumer({
      db,
      logger: silent,
      subject: 'work.download',
      handler: async (item) => {
        handled.push(item);
        return 'ack';
      },
      waitForWork: (timeoutMs, signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, Math.min(timeoutMs, 50));
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    });
    await consumer.start();
    try {
      assert.equal(consumer.taking, true);
      // The queue's table out of reach, as when its database is.
      await db.raw(`ALTER TABLE ${WORK_QUEUE_TABLE} RENAME TO work_queue_away`);
      await until('the consumer to say it cannot take work', () => !consumer.taking);
      await db.raw(`ALTER TABLE work_queue_away RENAME TO ${WORK_QUEUE_TABLE}`);
      await db(WORK_QUEUE_TABLE).insert({
        message_id: 'm-1',
        subject: 'work.download',
        payload: JSON.stringify({ n: 1 }),
      });
      await until('the message handled', () => handled.length === 1);
      await until('the consumer to say it takes work again', () => consumer.taking);
    } finally {
      await consumer.stop();
    }
  });
});
