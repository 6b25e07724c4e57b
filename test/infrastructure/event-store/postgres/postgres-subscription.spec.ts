import assert from 'node:assert/strict';
import type { SubscriptionPage } from '../../../../application/ports/event-store.js';
import type { HeardNews } from '../../../../infrastructure/event-store/postgres/category-news.js';
import { PostgresSubscription } from '../../../../infrastructure/event-store/postgres/postgres-subscription.js';
import type { GlobalPage } from '../../../../infrastructure/event-store/postgres/read-global-page.js';

const OPTIONS = { after: null, batchSize: 10, pollIntervalMs: 250, idlePollMs: 5_000 };

/** What the fake store answers to the nth read (1-based): its page, and what was heard while it ran. */
type Script = (read: number) => { page?: Partial<GlobalPage>; heard?: HeardNews };

/**
 * The reads a subscription makes and the waits it asks for, with no database and no clock: each read answers as the
 * script says, and no wait ever hears news; it stops after `waits` waits.
 */
async function runOf(script: Script, waits: number): Promise<{ steps: Array<number | 'read'>; pages: number }> {
  const steps: Array<number | 'read'> = [];
  let reads = 0;
  let heard: HeardNews = 'none';
  let pages = 0;
  const subscription: PostgresSubscription = new PostgresSubscription(
    async (after) => {
      reads += 1;
      steps.push('read');
      const answer = script(reads);
      heard = answer.heard ?? 'none';
      return { events: [], scannedTo: after, eventsHeldBack: false, ...answer.page };
    },
    {
      mark: () => reads,
      heardSince: () => heard,
      async wait(timeoutMs) {
        steps.push(timeoutMs);
        if (steps.filter((step) => step !== 'read').length >= waits) await subscription.close();
        return false;
      },
    },
    OPTIONS,
    () => undefined,
  );
  for await (const _page of subscription as AsyncIterable<SubscriptionPage>) pages += 1;
  return { steps, pages };
}

const waitsIn = (steps: Array<number | 'read'>) => steps.filter((step): step is number => step !== 'read');

describe('A subscription with nothing to read', () => {
  it('waits for news up to the idle poll, reading once per wait, when nothing is held back', async () => {
    const { steps } = await runOf(() => ({}), 5);
    assert.deepEqual(steps, ['read', 5_000, 'read', 5_000, 'read', 5_000, 'read', 5_000, 'read', 5_000]);
  });

  it('looks again soon while its reads see events held back, backing off to the poll interval, then idles', async () => {
    const { steps } = await runOf((read) => ({ page: { eventsHeldBack: read <= 10 } }), 11);
    assert.deepEqual(waitsIn(steps), [2, 4, 8, 16, 32, 64, 128, 250, 250, 250, 5_000]);
  });

  it('reads again at once when news it follows came while it read', async () => {
    const { steps } = await runOf((read) => ({ heard: read === 2 ? 'interesting' : 'none' }), 3);
    assert.deepEqual(steps, ['read', 5_000, 'read', 'read', 5_000, 'read', 5_000]);
  });

  it('reads again within the poll interval after news of other categories, to move its position on', async () => {
    const { steps } = await runOf((read) => ({ heard: read === 2 ? 'other' : 'none' }), 3);
    assert.deepEqual(steps, ['read', 5_000, 'read', 250, 'read', 5_000]);
  });
});

describe('A subscription that read events', () => {
  const event = (n: number) => ({ position: `p${n}` }) as GlobalPage['events'][number];

  it('reads again at once after a full page, and waits after one that is not', async () => {
    const full = Array.from({ length: OPTIONS.batchSize }, (_, n) => event(n));
    const { steps, pages } = await runOf(
      (read) => ({
        page:
          read === 1 ? { events: full, scannedTo: 'p9' } : read === 2 ? { events: [event(10)], scannedTo: 'p10' } : {},
      }),
      2,
    );
    assert.deepEqual(steps, ['read', 'read', 5_000, 'read', 5_000]);
    assert.equal(pages, 2);
  });

  it('yields a position moved past events it does not follow, then waits', async () => {
    const { steps, pages } = await runOf((read) => ({ page: read === 1 ? { scannedTo: 'p3' } : {} }), 2);
    assert.deepEqual(steps, ['read', 5_000, 'read', 5_000]);
    assert.equal(pages, 1);
  });
});

describe('A nudged subscription', () => {
  const noNews = (wait: (timeoutMs: number, signal: AbortSignal) => Promise<boolean>) => ({
    mark: () => 0,
    heardSince: () => 'none' as const,
    wait,
  });

  it('ends its wait and reads at once, yielding the position it scanned to, with no notification', async () => {
    let head = 'p1';
    let waiting: (() => void) | null = null;
    const subscription = new PostgresSubscription(
      async () => ({ events: [], scannedTo: head, eventsHeldBack: false }),
      // No notification ever comes, and no poll ends on its own: only a nudge (or closing) ends a wait.
      noNews(
        (_timeoutMs, signal) =>
          new Promise<boolean>((resolve) => {
            waiting = () => resolve(false);
            signal.addEventListener('abort', () => resolve(false), { once: true });
          }),
      ),
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
        ...noNews(
          (_timeoutMs, signal) =>
            new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true })),
        ),
        // News heard during the first read brings the second at once.
        heardSince: () => (reads === 1 ? 'interesting' : 'none'),
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
