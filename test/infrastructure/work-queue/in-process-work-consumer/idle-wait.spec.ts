import assert from 'node:assert/strict';
import type { Logger } from '../../../../application/ports/logger.js';
import { type EmbeddedDatabase, openEmbeddedDatabase } from '../../../../infrastructure/embedded/embedded-database.js';
import { InProcessWorkConsumer } from '../../../../infrastructure/work-queue/in-process-work-consumer.js';
import { WORK_QUEUE_TABLE, ensureWorkQueueTable } from '../../../../infrastructure/work-queue/work-queue-schema.js';
import { ensureDeadLetterTable } from '../../../../infrastructure/postgres/dead-letter-table.js';
import { waitFor } from '../../../support/wait-for.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('in-process work queue: an idle consumer sleeps until its next row falls due', function () {
  this.timeout(120_000);
  let embedded: EmbeddedDatabase;
  let consumer: InProcessWorkConsumer | null = null;
  /** The waits the consumer's loop asked for; the fake wait returns soon, whatever was asked, so the loop keeps asking. */
  let asked: number[] = [];

  before(async () => {
    embedded = await openEmbeddedDatabase(null);
    await ensureWorkQueueTable(embedded.db);
    await ensureDeadLetterTable(embedded.db);
  });
  beforeEach(() => {
    asked = [];
    consumer = new InProcessWorkConsumer({
      subject: 'work.idle',
      handler: async () => 'ack',
      db: embedded.db,
      logger: silent,
      pollIntervalMs: 30_000,
      waitForWork: (timeoutMs) => {
        asked.push(timeoutMs);
        return new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
  });
  afterEach(async () => {
    await consumer?.stop();
    await embedded.db(WORK_QUEUE_TABLE).delete();
  });
  after(async () => embedded?.close());

  it('asks for the longest idle wait when its subject has no row', async () => {
    await consumer?.start();
    await waitFor('the loop went idle twice', () => asked.length >= 2, 20_000);
    assert.deepEqual(asked.slice(0, 2), [30_000, 30_000]);
  });

  it('asks to wake when a delayed row falls due, not after the longest idle wait', async () => {
    await embedded.db(WORK_QUEUE_TABLE).insert({
      message_id: 'later',
      subject: 'work.idle',
      payload: JSON.stringify({}),
      available_at: embedded.db.raw(`clock_timestamp() + interval '10 seconds'`),
    });
    await consumer?.start();
    await waitFor('the loop went idle', () => asked.length >= 1, 20_000);
    assert.ok(asked[0] > 1_000 && asked[0] <= 10_100, `asked to wait ${asked[0]} ms`);
  });

  it('asks to wake when a lease held by a hung delivery ends', async () => {
    await embedded.db(WORK_QUEUE_TABLE).insert({
      message_id: 'leased',
      subject: 'work.idle',
      payload: JSON.stringify({}),
      deliveries: 1,
      lease_token: 'a-hung-delivery',
      leased_until: embedded.db.raw(`clock_timestamp() + interval '10 seconds'`),
    });
    await consumer?.start();
    await waitFor('the loop went idle', () => asked.length >= 1, 20_000);
    assert.ok(asked[0] > 1_000 && asked[0] <= 10_100, `asked to wait ${asked[0]} ms`);
  });
});

describe('in-process work queue: a wide idle consumer', function () {
  this.timeout(60_000);
  let embedded: EmbeddedDatabase;

  before(async () => {
    embedded = await openEmbeddedDatabase(null);
    await ensureWorkQueueTable(embedded.db);
    await ensureDeadLetterTable(embedded.db);
  });
  after(async () => embedded?.close());

  it('keeps one wait for work open whatever its concurrency, and no listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let waiting = 0;
    let mostAtOnce = 0;
    let waits = 0;
    const consumer = new InProcessWorkConsumer({
      subject: 'work.wide',
      handler: async () => 'ack',
      db: embedded.db,
      logger: silent,
      concurrency: 16,
      pollIntervalMs: 30_000,
      // Waits as the real wake signal does, a listener on the stop signal while it sleeps, but ends soon, so the
      // consumer keeps looking and waiting.
      waitForWork: (_timeoutMs, signal) =>
        new Promise<void>((resolve) => {
          waiting += 1;
          waits += 1;
          mostAtOnce = Math.max(mostAtOnce, waiting);
          const done = () => {
            clearTimeout(timer);
            waiting -= 1;
            resolve();
          };
          const timer = setTimeout(done, 20);
          signal.addEventListener('abort', done, { once: true });
        }),
    });
    try {
      await consumer.start();
      await waitFor('the consumer waited a few times', () => waits >= 5, 20_000);
    } finally {
      await consumer.stop();
      process.off('warning', onWarning);
    }
    assert.equal(mostAtOnce, 1, 'one wait at a time, as one pull on JetStream');
    assert.deepEqual(
      warnings.filter((name) => name === 'MaxListenersExceededWarning'),
      [],
    );
  });
});
