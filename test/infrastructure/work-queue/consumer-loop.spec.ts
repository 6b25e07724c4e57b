import assert from 'node:assert/strict';
import type { Logger } from '../../../application/ports/logger.js';
import type { WorkHandler } from '../../../application/ports/work-queue.js';
import { ConsumerLoop } from '../../../infrastructure/work-queue/consumer-loop.js';
import type { Delivery, DeliverySource, Settlement } from '../../../infrastructure/work-queue/delivery.js';
import { waitFor } from '../../support/wait-for.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** A delivery that records what the loop did with it. */
class RecordedDelivery implements Delivery {
  readonly log = silent;
  readonly settlements: Settlement[] = [];
  extensions = 0;
  lapsed = false;

  constructor(readonly message: Delivery['message']) {}

  async extend(): Promise<void> {
    this.extensions += 1;
  }

  async settle(settlement: Settlement): Promise<void> {
    this.settlements.push(settlement);
  }

  lapse(): void {
    this.lapsed = true;
  }
}

function delivery(n: number, deliveryCount = 1): RecordedDelivery {
  return new RecordedDelivery({
    subject: 'work.test',
    data: { n },
    deliveryCount,
    messageId: String(n),
    deliveryId: `${n}:${deliveryCount}`,
  });
}

/** Gives out `queued` one take at a time, then nothing (each empty take waits a little, as an idle pull does). */
function scriptedSource(queued: RecordedDelivery[]): DeliverySource & { takes: number } {
  return {
    takes: 0,
    async take() {
      this.takes += 1;
      const next = queued.shift();
      if (next === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      return next ?? null;
    },
  };
}

describe('ConsumerLoop (the loop both work queues run)', function () {
  this.timeout(20_000);
  const loops: ConsumerLoop[] = [];
  afterEach(async () => Promise.all(loops.splice(0).map((loop) => loop.stop())));

  function loop(source: DeliverySource, handler: WorkHandler, options: { concurrency?: number } = {}) {
    const created = new ConsumerLoop({ subject: 'work.test', handler, logger: silent, source, ...options });
    loops.push(created);
    return created;
  }

  it('takes a delivery only while a handler slot is free, and settles each with its result', async () => {
    const queued = [delivery(1), delivery(2), delivery(3)];
    const all = [...queued];
    const source = scriptedSource(queued);
    const release: Array<() => void> = [];
    await loop(
      source,
      (item) =>
        new Promise((resolve) =>
          release.push(() => resolve((item.data as { n: number }).n === 2 ? 'terminate' : 'ack')),
        ),
      { concurrency: 2 },
    ).start();
    await waitFor('two handlers running', () => release.length === 2);
    assert.equal(source.takes, 2, 'no take while both slots are busy');
    release.shift()?.();
    await waitFor('the third delivery handled', () => release.length === 2);
    for (const next of release.splice(0)) next();
    await waitFor('all settled', () => all.every((one) => one.settlements.length === 1));
    assert.deepEqual(
      all.map((one) => one.settlements),
      [['ack'], ['terminate'], ['ack']],
    );
  });

  it('flags the last allowed delivery', async () => {
    const seen: boolean[] = [];
    await loop(scriptedSource([delivery(1, 4), delivery(2, 5)]), async (item) => {
      seen.push(item.isLastAttempt);
      return 'ack';
    }).start();
    await waitFor('both handled', () => seen.length === 2);
    assert.deepEqual(seen, [false, true]);
  });

  it('hands back, unhandled, a delivery taken while it stops', async () => {
    const late = delivery(1);
    let handled = false;
    const source: DeliverySource = {
      // The take ends with a message just as the consumer stops, as a pull can.
      take: (stop) => new Promise((resolve) => stop.addEventListener('abort', () => resolve(late), { once: true })),
    };
    const consumer = loop(source, async () => {
      handled = true;
      return 'ack';
    });
    await consumer.start();
    await consumer.stop();
    assert.deepEqual(late.settlements, ['handback']);
    assert.equal(handled, false);
  });

  it('says it cannot take work while takes fail, recovers after a pause, and takes again', async () => {
    let failing = true;
    let recoveries = 0;
    const queued = [delivery(1)];
    const handled: unknown[] = [];
    const source: DeliverySource = {
      async take() {
        if (failing) throw new Error('queue out of reach');
        return queued.shift() ?? null;
      },
      waitIdle: () => new Promise((resolve) => setTimeout(resolve, 10)),
      async recover() {
        recoveries += 1;
      },
    };
    const consumer = loop(source, async (item) => {
      handled.push(item.data);
      return 'ack';
    });
    await consumer.start();
    await waitFor('the consumer says it cannot take work', () => !consumer.taking);
    await waitFor('a recovery after the pause', () => recoveries >= 1);
    failing = false;
    await waitFor('the delivery handled', () => handled.length === 1, 10_000);
    assert.equal(consumer.taking, true);
  });

  it('extends the ack wait only after progress, and ends a delivery with no progress confirmed for a whole ack wait', async () => {
    const beating = delivery(1);
    const hung = delivery(2);
    const reasons: unknown[] = [];
    const consumer = new ConsumerLoop({
      subject: 'work.test',
      logger: silent,
      source: scriptedSource([beating, hung]),
      concurrency: 2,
      ackWaitMs: 400,
      heartbeatMs: 100,
      handler: async (item) => {
        if ((item.data as { n: number }).n === 1) {
          for (let beat = 0; beat < 8; beat++) {
            item.heartbeat();
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return 'ack';
        }
        await new Promise((resolve) => item.signal.addEventListener('abort', resolve, { once: true }));
        reasons.push(item.signal.reason);
        return { retryAfterMs: 0 };
      },
    });
    loops.push(consumer);
    await consumer.start();
    await waitFor('both settled', () => beating.settlements.length === 1 && hung.settlements.length === 1);
    assert.deepEqual(beating.settlements, ['ack']);
    assert.equal(beating.lapsed, false);
    assert.ok(beating.extensions >= 2, `extended ${beating.extensions} times`);
    assert.equal(hung.lapsed, true);
    assert.equal(hung.extensions, 0);
    assert.match(String(reasons[0]), /no progress was confirmed/);
  });
});
