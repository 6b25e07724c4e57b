import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../../application/ports/logger.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { connectToNats } from '../../../infrastructure/nats/connection.js';
import { JetStreamWorkQueue } from '../../../infrastructure/nats/jetstream-work-queue.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { createTestDatabase } from '../../support/postgres.js';
import { describeWorkQueueContract } from '../work-queue/contract.js';

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describeWorkQueueContract('JetStream', async () => {
  const suffix = randomBytes(4).toString('hex');
  const stream = `WQCONTRACT_${suffix}`;
  const subjectPrefix = `wqcontract_${suffix}`;
  const database = await createTestDatabase('work_queue_jetstream');
  const db: Knex = createKnex(database.url);
  const store = new InMemoryEventStore();
  const processor = { db, store, connectionString: database.url, logger: silent, lockRetryMs: 100 };
  return {
    store,
    subjectPrefix,
    open: () =>
      JetStreamWorkQueue.open({
        url: NATS_URL,
        stream,
        subjects: [`${subjectPrefix}.>`],
        connectionName: 'work-queue contract',
        logger: silent,
        processor,
        pullExpiresMs: 1_000,
      }),
    async cleanup() {
      const nc = await connectToNats({ url: NATS_URL });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
});
