import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type { Logger } from '../../../../application/ports/logger.js';
import type { WorkConsumer, WorkItem } from '../../../../application/ports/work-queue.js';
import { openEmbeddedDatabase } from '../../../../infrastructure/embedded/embedded-database.js';
import { PgliteEventStore } from '../../../../infrastructure/event-store/pglite/pglite-event-store.js';
import { DEAD_LETTER_TABLE } from '../../../../infrastructure/postgres/dead-letter-table.js';
import { InProcessWorkQueue } from '../../../../infrastructure/work-queue/in-process-work-queue.js';
import { WORK_QUEUE_TABLE } from '../../../../infrastructure/work-queue/work-queue-schema.js';
import { inProcessLocks } from '../../../../infrastructure/embedded/in-process-locks.js';
import { waitFor } from '../../../support/wait-for.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('in-process work queue: rows whose last delivery died with its process', function () {
  // Creating a PGlite database runs initdb in WebAssembly: about 15 s on an idle machine, minutes on a loaded one.
  this.timeout(180_000);
  let embedded: Awaited<ReturnType<typeof openEmbeddedDatabase>>;
  let store: PgliteEventStore;
  let db: Knex;
  let consumer: WorkConsumer | null;
  const open = () =>
    InProcessWorkQueue.open({
      processor: { db, store, connectionString: '', acquireLock: inProcessLocks(), logger: silent, lockRetryMs: 100 },
      logger: silent,
      exclusive: true,
      pollIntervalMs: 50,
    });

  before(async () => {
    embedded = await openEmbeddedDatabase(null);
    db = embedded.db;
    store = new PgliteEventStore(db, { pollIntervalMs: 50 });
    await store.migrate();
    await (await open()).close();
  });
  beforeEach(() => {
    consumer = null;
  });
  afterEach(async () => {
    await consumer?.stop();
    await db(WORK_QUEUE_TABLE).delete();
    await db(DEAD_LETTER_TABLE).delete();
  });
  after(async () => {
    await store.close();
    await embedded.close();
  });

  const rowsOf = async (table: string) => (await db(table).select('id')).length;

  /** The queue as a process killed during a delivery leaves it: the row's lease still names that delivery. */
  async function leftByADeadProcess(messageId: string, deliveries: number): Promise<void> {
    await db(WORK_QUEUE_TABLE).insert({
      message_id: messageId,
      subject: 'work.download',
      payload: JSON.stringify({ jobId: messageId }),
      deliveries,
      lease_token: 'delivery-of-the-dead-process',
      leased_until: db.raw(`clock_timestamp() + interval '1 hour'`),
    });
  }

  it('dead-letters, in the process started next, a message whose last allowed delivery died, and delivers one with deliveries left', async () => {
    await leftByADeadProcess('exhausted', 3);
    await leftByADeadProcess('resumable', 1);
    const queue = await open();
    const delivered: unknown[] = [];
    consumer = queue.consumer({
      subject: 'work.download',
      maxDeliver: 3,
      ackWaitMs: 2_000,
      handler: async (item: WorkItem) => {
        delivered.push(item.data);
        return 'ack';
      },
    });
    await consumer.start();
    await waitFor('the queue is empty', async () => (await rowsOf(WORK_QUEUE_TABLE)) === 0, 20_000);
    assert.deepEqual(delivered, [{ jobId: 'resumable' }]);
    const letters = await db(DEAD_LETTER_TABLE).select('reason', 'consumer', 'deliveries', 'body');
    assert.deepEqual(letters, [
      { reason: 'max_deliveries', consumer: 'work.download', deliveries: 3, body: { jobId: 'exhausted' } },
    ]);
  });

  it('dead-letters a message whose last allowed delivery stopped being renewed while this process runs', async () => {
    const queue = await open();
    await db(WORK_QUEUE_TABLE).insert({
      message_id: 'lapsed',
      subject: 'work.download',
      payload: JSON.stringify({ jobId: 'lapsed' }),
      deliveries: 3,
      lease_token: 'a-delivery-that-hung',
      leased_until: db.raw(`clock_timestamp() - interval '1 second'`),
    });
    consumer = queue.consumer({
      subject: 'work.download',
      maxDeliver: 3,
      ackWaitMs: 2_000,
      handler: async () => 'ack',
    });
    await consumer.start();
    await waitFor('the message is dead-lettered', async () => (await rowsOf(DEAD_LETTER_TABLE)) === 1, 20_000);
    assert.equal(await rowsOf(WORK_QUEUE_TABLE), 0);
  });
});
