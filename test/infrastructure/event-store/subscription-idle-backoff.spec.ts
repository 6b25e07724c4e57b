import assert from 'node:assert/strict';
import type { SubscriptionPage } from '../../../application/ports/event-store.js';
import { PostgresSubscription } from '../../../infrastructure/event-store/postgres/postgres-subscription.js';

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
    assert.ok(afterNews.every((delay) => delay <= 250), `waits after the notification: ${afterNews.join(', ')}`);
  });
});
