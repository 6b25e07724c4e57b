import assert from 'node:assert/strict';
import type { EventFilter } from '../../../../application/ports/event-store.js';
import type { NewsInterest } from '../../../../infrastructure/event-store/postgres/category-news.js';
import { Subscribers } from '../../../../infrastructure/event-store/postgres/subscribers.js';
import { waitFor } from '../../../support/wait-for.js';

/** A source with no events: it records the filters its pages were read with and the interests its waits carried. */
function emptySource() {
  const filters: Array<EventFilter | undefined> = [];
  const interests: NewsInterest[] = [];
  return {
    filters,
    interests,
    source: {
      readPage: async (after: string | null, _maxCount: number, filter: EventFilter | undefined) => {
        filters.push(filter);
        return { events: [], scannedTo: after, eventsHeldBack: false };
      },
      news: {
        mark: () => 0,
        heardSince: () => 'none' as const,
        wait: (_timeoutMs: number, signal: AbortSignal, interest: NewsInterest) => {
          interests.push(interest);
          return new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false)));
        },
      },
    },
  };
}

describe('Subscribers', () => {
  it("reads with the subscription's filter and waits for news of the categories it can match", async () => {
    const { source, filters, interests } = emptySource();
    const subscribers = new Subscribers(source);
    const filter = { streamPrefixes: ['download-'] };
    const iterating = subscribers.subscribe({ filter })[Symbol.asyncIterator]().next();
    await waitFor('the subscription waits for news', () => interests.length > 0);
    assert.deepEqual(filters, [filter]);
    assert.equal(interests[0](['download']), true);
    assert.equal(interests[0](['account']), false);
    await subscribers.closeAll();
    assert.equal((await iterating).done, true, 'closing them all ends the iteration');
  });

  it('gives out subscriptions already closed once they are all closed', async () => {
    const { source, filters } = emptySource();
    const subscribers = new Subscribers(source);
    await subscribers.closeAll();
    const late = subscribers.subscribe();
    assert.equal((await late[Symbol.asyncIterator]().next()).done, true);
    assert.deepEqual(filters, [], 'nothing was read');
  });
});
