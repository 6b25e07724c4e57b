import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beatWhile } from '../../../application/beat-while.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import type {
  WorkConsumer,
  WorkConsumerOptions,
  WorkHandler,
  WorkItem,
  WorkQueue,
  WorkRelay,
} from '../../../application/ports/work-queue.js';

export interface WorkQueueHarness {
  store: EventStore;
  /** Subjects must start with it (the JetStream stream carries `<prefix>.>`). */
  subjectPrefix: string;
  /** A queue as a newly started process would open it; each call is a new "process". */
  open(): Promise<WorkQueue>;
  cleanup(): Promise<void>;
}

export type WorkQueueHarnessFactory = () => Promise<WorkQueueHarness>;

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every work-queue adapter shares: work enters through the
 * relay from the event store, as in the service, and leaves through
 * consumers. Each test uses a subject, stream category and relay of its own.
 */
export function describeWorkQueueContract(label: string, factory: WorkQueueHarnessFactory): void {
  describe(`work queue contract: ${label}`, function () {
    this.timeout(30_000);
    let harness: WorkQueueHarness;
    let queue: WorkQueue;
    const extraQueues: WorkQueue[] = [];
    const running: Array<WorkConsumer | WorkRelay> = [];
    let counter = 0;

    before(async function () {
      // Opening an embedded database compiles PGlite's WebAssembly: CPU-bound, 39 s seen on two cores under heavy load.
      this.timeout(120_000);
      harness = await factory();
      queue = await harness.open();
    });

    afterEach(async () => {
      for (const part of running.splice(0).reverse()) await part.stop();
      for (const extra of extraQueues.splice(0)) await extra.close();
    });

    after(async () => {
      await queue?.close();
      await harness?.cleanup();
    });

    /** A subject fed by a relay of its own from a stream category of its own. */
    async function scenario(on: WorkQueue = queue) {
      counter += 1;
      const category = `wq${counter}x${randomUUID().slice(0, 8)}`;
      const subject = `${harness.subjectPrefix}.s${counter}`;
      const startRelay = async (from: WorkQueue) => {
        const relay = from.relay({
          name: `relay:${category}`,
          filter: { streamPrefixes: [`${category}-`] },
          route: (event) => [{ subject, payload: event.data }],
        });
        await relay.start();
        running.push(relay);
        return relay;
      };
      const relay = await startRelay(on);
      return {
        subject,
        relay,
        startRelay,
        async submit(...ns: number[]) {
          for (const n of ns)
            await harness.store.appendToStream(
              `${category}-${n}`,
              [{ id: randomUUID(), type: 'Worked', data: { n } }],
              { expectedRevision: 'any' },
            );
        },
        consumer(handler: WorkHandler, options: Partial<WorkConsumerOptions> = {}, from: WorkQueue = on) {
          const created = from.consumer({ subject, handler, ackWaitMs: 2_000, drainTimeoutMs: 5_000, ...options });
          running.push(created);
          return created;
        },
      };
    }

    it('delivers each routed event once to a consumer that acks it', async () => {
      const { submit, consumer } = await scenario();
      const seen: Array<{ n: number; count: number; last: boolean }> = [];
      const all = deferred();
      await consumer(async (item) => {
        const { n } = item.data as { n: number };
        seen.push({ n, count: item.deliveryCount, last: item.isLastAttempt });
        if (seen.length === 3) all.resolve();
        return 'ack';
      }).start();
      await submit(1, 2, 3);
      await all.promise;
      await pause(500);
      assert.deepEqual(
        seen.sort((a, b) => a.n - b.n),
        [1, 2, 3].map((n) => ({ n, count: 1, last: false })),
      );
    });

    it('redelivers after the delay the handler asked for', async () => {
      const { submit, consumer } = await scenario();
      const at: number[] = [];
      const done = deferred();
      await consumer(async (item) => {
        at.push(Date.now());
        if (item.deliveryCount === 1) return { retryAfterMs: 800 };
        done.resolve();
        return 'ack';
      }).start();
      await submit(1);
      await done.promise;
      assert.equal(at.length, 2);
      assert.ok(at[1] - at[0] >= 700, `redelivered after ${at[1] - at[0]} ms`);
    });

    it('retries when the handler throws', async () => {
      const { submit, consumer } = await scenario();
      const done = deferred<number>();
      await consumer(
        async (item) => {
          if (item.deliveryCount === 1) throw new Error('boom');
          done.resolve(item.deliveryCount);
          return 'ack';
        },
        { errorRetry: { initialDelayMs: 100, maxDelayMs: 100 } },
      ).start();
      await submit(1);
      assert.equal(await done.promise, 2);
    });

    it('never redelivers a terminated message', async () => {
      const { submit, consumer } = await scenario();
      let calls = 0;
      const handled = deferred();
      await consumer(
        async () => {
          calls += 1;
          handled.resolve();
          return 'terminate';
        },
        { ackWaitMs: 1_000 },
      ).start();
      await submit(1);
      await handled.promise;
      await pause(1_800);
      assert.equal(calls, 1);
    });

    it('keeps at most `concurrency` handlers running', async () => {
      const { submit, consumer } = await scenario();
      let active = 0;
      let peak = 0;
      let handled = 0;
      const all = deferred();
      await submit(1, 2, 3, 4, 5, 6);
      await consumer(
        async () => {
          active += 1;
          peak = Math.max(peak, active);
          await pause(150);
          active -= 1;
          if (++handled === 6) all.resolve();
          return 'ack';
        },
        { concurrency: 3 },
      ).start();
      await all.promise;
      assert.equal(peak, 3);
    });

    it('keeps a message whose handler waits its turn, beating, for several ack waits', async () => {
      const { submit, consumer } = await scenario();
      let calls = 0;
      let lapsed = false;
      const done = deferred();
      await consumer(
        async (item) => {
          calls += 1;
          // As a download waits out a platform back-off before yt-dlp starts: three ack waits.
          await beatWhile(pause(3_000), () => item.heartbeat());
          lapsed = item.signal.aborted;
          done.resolve();
          return 'ack';
        },
        { ackWaitMs: 1_000 },
      ).start();
      await submit(1);
      await done.promise;
      assert.equal(lapsed, false, 'the delivery did not lapse');
      assert.equal(calls, 1, 'nor was the message delivered again meanwhile');
    });

    it('keeps a message whose handler reports progress past the ack wait', async () => {
      const { submit, consumer } = await scenario();
      let calls = 0;
      const done = deferred();
      await consumer(
        async (item) => {
          calls += 1;
          // 1.75 s of progress: past the ack wait, with heartbeats only.
          for (let step = 0; step < 7; step++) {
            await pause(250);
            item.heartbeat();
          }
          done.resolve();
          return 'ack';
        },
        { ackWaitMs: 1_000, heartbeatMs: 250, concurrency: 2 },
      ).start();
      await submit(1);
      await done.promise;
      await pause(300);
      assert.equal(calls, 1);
    });

    it('redelivers, as another delivery of the same message, a message whose handler stopped heartbeating', async () => {
      const { submit, consumer } = await scenario();
      const deliveries: WorkItem[] = [];
      const second = deferred();
      await consumer(
        async (item) => {
          deliveries.push(item);
          // Counted here: JetStream may report the same delivery count again after a lapse.
          if (deliveries.length === 1) {
            // Hangs without heartbeats until the queue gives up on it, then fails as an aborted handler does. (Had it
            // answered 'ack', that ack could reach the queue before the redelivery and rightly settle the message.)
            await new Promise((_, reject) => item.signal.addEventListener('abort', () => reject(new Error('aborted'))));
          }
          second.resolve();
          return 'ack';
        },
        { ackWaitMs: 1_000, heartbeatMs: 60_000, concurrency: 2, drainTimeoutMs: 100 },
      ).start();
      const submittedAt = Date.now();
      await submit(1);
      await second.promise;
      assert.equal(deliveries.length, 2);
      assert.equal(deliveries[1].messageId, deliveries[0].messageId);
      assert.notEqual(deliveries[1].deliveryId, deliveries[0].deliveryId);
      assert.ok(Date.now() - submittedAt >= 900, 'not before the ack wait');
    });

    it('flags the last allowed delivery and delivers no more after it', async () => {
      const { submit, consumer } = await scenario();
      const seen: Array<[number, boolean]> = [];
      const third = deferred();
      await consumer(
        async (item) => {
          seen.push([item.deliveryCount, item.isLastAttempt]);
          if (seen.length === 3) third.resolve();
          return { retryAfterMs: 50 };
        },
        { maxDeliver: 3, ackWaitMs: 1_000 },
      ).start();
      await submit(1);
      // However slowly the three deliveries come on a busy machine; then a while for a fourth that must not come.
      await third.promise;
      await pause(1_500);
      assert.deepEqual(seen, [
        [1, false],
        [2, false],
        [3, true],
      ]);
    });

    it('stop() waits for handlers under way, then hands back those outliving the drain timeout', async () => {
      const { submit, consumer } = await scenario();
      const inHandler = deferred();
      let finished = false;
      const patient = consumer(async () => {
        inHandler.resolve();
        await pause(300);
        finished = true;
        return 'ack';
      });
      await patient.start();
      await submit(1);
      await inHandler.promise;
      await patient.stop();
      assert.equal(finished, true);

      const stuckIn = deferred<WorkItem>();
      const stuck = consumer(
        async (item) => {
          if ((item.data as { n: number }).n !== 2) return 'ack';
          stuckIn.resolve(item);
          await new Promise((resolve) => item.signal.addEventListener('abort', resolve));
          return 'ack';
        },
        { ackWaitMs: 30_000, drainTimeoutMs: 200 },
      );
      await stuck.start();
      await submit(2);
      const first = await stuckIn.promise;
      await stuck.stop();
      const redelivered = deferred<WorkItem>();
      const handedBackAt = Date.now();
      await consumer(
        async (item) => {
          redelivered.resolve(item);
          return 'ack';
        },
        { ackWaitMs: 30_000 },
      ).start();
      const again = await redelivered.promise;
      assert.equal(again.messageId, first.messageId);
      assert.notEqual(again.deliveryId, first.deliveryId);
      // Half the ack wait: apart from it whatever the machine's load.
      assert.ok(Date.now() - handedBackAt < 15_000, 'handed back at once, not after the ack wait');
    });

    it('resumes, in a process started later, the work a dead process had under way and the work it never took', async () => {
      const dying = await harness.open();
      extraQueues.push(dying);
      const { submit, consumer, relay, startRelay } = await scenario(dying);
      const started = deferred<WorkItem>();
      // One handler, stuck without heartbeats: the process takes nothing more, as if it had died mid-job. Its late
      // answer, once its delivery lapsed, must not settle the message the queue has given out again.
      await consumer(
        async (item) => {
          started.resolve(item);
          await new Promise((resolve) => item.signal.addEventListener('abort', resolve));
          return 'ack';
        },
        { ackWaitMs: 1_000, heartbeatMs: 60_000, drainTimeoutMs: 100 },
      ).start();
      await submit(1);
      const first = await started.promise;
      await relay.stop();
      await submit(2);

      const restarted = await harness.open();
      extraQueues.push(restarted);
      await startRelay(restarted);
      const seen = new Map<number, WorkItem>();
      const both = deferred();
      await consumer(
        async (item) => {
          seen.set((item.data as { n: number }).n, item);
          if (seen.size === 2) both.resolve();
          return 'ack';
        },
        { ackWaitMs: 1_000 },
        restarted,
      ).start();
      await both.promise;
      assert.equal(seen.get(1)?.messageId, first.messageId, 'the message the dead process had');
      assert.notEqual(seen.get(1)?.deliveryId, first.deliveryId);
      assert.ok(seen.has(2), 'the message it never took');
    });
  });
}
