import assert from 'node:assert/strict';
import type { SubscriptionPage } from '../../../../application/ports/event-store.js';
import { PostgresSubscription } from '../../../../infrastructure/event-store/postgres/postgres-subscription.js';

/**
 * The waits an idle subscription asks for, with no database and no clock: a
 * fake store whose pages are always empty, and whose notifications come when
 * the test says.
 */
async function waitsOf(notifyAt: ReadonlySet<number>, waits: number): Promise<{ asked: number[]; reads: number }> {
  const asked: number[] = [];
  let reads = 0;
  const subscription: PostgresSubscription = new PostgresSubscription(
    async (after) => {
      reads += 1;
      return { events: [], scannedTo: after };
    },
    async (timeoutMs) => {
      asked.push(timeoutMs);
      if (asked.length >= waits) await subscription.close();
      return notifyAt.has(asked.length);
    },
    { after: null, batchSize: 10, pollIntervalMs: 250, idlePollMs: 5_000 },
    () => undefined,
  );
  const pages: IteratorResult<SubscriptionPage>[] = [];
  const iterator = subscription[Symbol.asyncIterator]();
  pages.push(await iterator.next());
  assert.equal(pages[0].done, true);
  return { asked, reads };
}

describe('An idle subscription', () => {
  it('backs off past the poll interval to the idle poll when no notification comes', async () => {
    const { asked } = await waitsOf(new Set(), 30);
    assert.equal(Math.max(...asked), 5_000);
    assert.deepEqual(asked.slice(-3), [5_000, 5_000, 5_000]);
  });

  it('still reads on its own, so an event whose notification was lost is found', async () => {
    const { reads } = await waitsOf(new Set(), 30);
    assert.ok(reads >= 30, `${reads} reads`);
  });

  it('looks again at the fast pace after a notification, since its event may still be hidden', async () => {
    const { asked } = await waitsOf(new Set([20]), 40);
    const afterNews = asked.slice(20);
    assert.equal(afterNews[0], 2);
    assert.ok(
      afterNews.every((delay) => delay <= 250),
      `waits after the notification: ${afterNews.join(', ')}`,
    );
  });
});

describe('A nudged subscription', () => {
  it('ends its wait and reads at once, yielding the position it scanned to, with no notification', async () => {
    let head = 'p1';
    let waiting: (() => void) | null = null;
    const subscription = new PostgresSubscription(
      async () => ({ events: [], scannedTo: head }),
      // No notification ever comes, and no poll ends on its own: only a nudge (or closing) ends a wait.
      (_timeoutMs, signal) =>
        new Promise<boolean>((resolve) => {
          waiting = () => resolve(false);
          signal.addEventListener('abort', () => resolve(false), { once: true });
        }),
      { after: null, batchSize: 10, pollIntervalMs: 600_000, idlePollMs: 600_000 },
      () => undefined,
    );
    const iterator = subscription[Symbol.asyncIterator]();
    assert.deepEqual((await iterator.next()).value, { events: [], scannedTo: 'p1' });
    const next = iterator.next();
    while (waiting === null) await new Promise((resolve) => setImmediate(resolve));
    head = 'p2';
    subscription.nudge();
    assert.deepEqual((await next).value, { events: [], scannedTo: 'p2' });
    await subscription.close();
  });

  it('reads again at once when nudged while a read is under way', async () => {
    let reads = 0;
    let finishRead: (() => void) | null = null;
    const subscription = new PostgresSubscription(
      async () => {
        reads += 1;
        if (reads === 2) await new Promise<void>((resolve) => (finishRead = resolve));
        return { events: [], scannedTo: reads >= 3 ? 'p2' : 'p1' };
      },
      (_timeoutMs, signal) =>
        new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true })),
      { after: null, batchSize: 10, pollIntervalMs: 600_000, idlePollMs: 600_000 },
      () => undefined,
    );
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next();
    const next = iterator.next();
    while (finishRead === null) await new Promise((resolve) => setImmediate(resolve));
    subscription.nudge();
    (finishRead as () => void)();
    assert.deepEqual((await next).value, { events: [], scannedTo: 'p2' });
    await subscription.close();
  });
});
