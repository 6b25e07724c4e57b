import assert from 'node:assert/strict';
import type { SubscriptionPage } from '../../../../application/ports/event-store.js';
import { CategoryNews } from '../../../../infrastructure/event-store/postgres/category-news.js';
import { PostgresSubscription } from '../../../../infrastructure/event-store/postgres/postgres-subscription.js';

/**
 * The waits an idle subscription asks for, with no database and no clock: a
 * fake store whose pages are always empty, which sees events held back from
 * the read numbered `heldBackFrom` on (1 is the first), and whose
 * notifications come when the test says.
 */
async function waitsOf(
  notifyAt: ReadonlySet<number>,
  waits: number,
  heldBackFrom = Number.POSITIVE_INFINITY,
): Promise<{ asked: number[]; reads: number }> {
  const asked: number[] = [];
  let reads = 0;
  const subscription: PostgresSubscription = new PostgresSubscription(
    async (after) => {
      reads += 1;
      return { events: [], scannedTo: after, eventsHeldBack: reads >= heldBackFrom };
    },
    {
      mark: () => 0,
      async wait(timeoutMs) {
        asked.push(timeoutMs);
        if (asked.length >= waits) await subscription.close();
        return notifyAt.has(asked.length);
      },
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
  it('waits for a notification, at most the idle poll, while nothing is held back', async () => {
    const { asked } = await waitsOf(new Set(), 30);
    assert.deepEqual(new Set(asked), new Set([5_000]));
  });

  it('still reads on its own, so an event whose notification was lost is found', async () => {
    const { reads } = await waitsOf(new Set(), 30);
    assert.ok(reads >= 30, `${reads} reads`);
  });

  it('looks again at the poll interval shortly after a notification when its reads see nothing held back', async () => {
    const { asked } = await waitsOf(new Set([20]), 40);
    assert.deepEqual(new Set(asked.slice(0, 20)), new Set([5_000]));
    assert.deepEqual(new Set(asked.slice(20)), new Set([250]), 'neither sooner nor at the idle poll');
  });

  it('looks again at the fast pace while its reads see events held back, which may be freed without a notification', async () => {
    const { asked } = await waitsOf(new Set([20]), 40, 21);
    const afterNews = asked.slice(20);
    assert.equal(afterNews[0], 2);
    assert.ok(
      afterNews.every((delay) => delay <= 250),
      `waits after the notification: ${afterNews.join(', ')}`,
    );
    assert.equal(Math.max(...afterNews), 250, 'backing off to the poll interval');
  });
});

describe('A subscription hearing news while it reads', () => {
  it('reads again at once, and waits from the mark taken before that read', async () => {
    const news = new CategoryNews();
    let reads = 0;
    const marksWaitedFrom: number[] = [];
    const subscription: PostgresSubscription = new PostgresSubscription(
      async (after) => {
        reads += 1;
        // The first read's snapshot misses an append whose notification comes before the read returns.
        if (reads === 1) news.announce(['download']);
        return { events: [], scannedTo: after, eventsHeldBack: false };
      },
      {
        mark: () => news.mark(),
        async wait(timeoutMs, signal, since) {
          marksWaitedFrom.push(since);
          if (reads >= 2) await subscription.close();
          return news.wait(timeoutMs, signal, undefined, since);
        },
      },
      { after: null, batchSize: 10, pollIntervalMs: 600_000, idlePollMs: 600_000 },
      () => undefined,
    );
    assert.equal((await subscription[Symbol.asyncIterator]().next()).done, true);
    assert.equal(reads, 2, 'the news during the first read brought a second one, without waiting out the poll');
    assert.deepEqual(marksWaitedFrom, [0, 1]);
  });

  it('is not woken by news of categories it does not read, nor by news from before its read', async () => {
    const news = new CategoryNews();
    news.announce(['download']);
    const since = news.mark();
    news.announce(['account']);
    const interest = (categories: readonly string[] | null) => categories?.includes('download') ?? true;
    const timeout = new AbortController();
    setTimeout(() => timeout.abort(), 50);
    assert.equal(await news.wait(600_000, timeout.signal, interest, since), false);
    news.announce(['download']);
    assert.equal(await news.wait(600_000, new AbortController().signal, interest, since), true);
  });
});

describe('A nudged subscription', () => {
  it('ends its wait and reads at once, yielding the position it scanned to, with no notification', async () => {
    let head = 'p1';
    let waiting: (() => void) | null = null;
    const subscription = new PostgresSubscription(
      async () => ({ events: [], scannedTo: head, eventsHeldBack: false }),
      // No notification ever comes, and no poll ends on its own: only a nudge (or closing) ends a wait.
      {
        mark: () => 0,
        wait: (_timeoutMs, signal) =>
          new Promise<boolean>((resolve) => {
            waiting = () => resolve(false);
            signal.addEventListener('abort', () => resolve(false), { once: true });
          }),
      },
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
        return { events: [], scannedTo: reads >= 3 ? 'p2' : 'p1', eventsHeldBack: false };
      },
      {
        mark: () => 0,
        wait: (_timeoutMs, signal) =>
          new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true })),
      },
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
