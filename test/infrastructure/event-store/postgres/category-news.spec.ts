import assert from 'node:assert/strict';
import { CategoryNews, interestOf } from '../../../../infrastructure/event-store/postgres/category-news.js';

/** Whether a waiter has been woken yet: a settled promise answers within a turn of the event loop. */
async function settled(promise: Promise<boolean>): Promise<boolean | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

describe('CategoryNews', () => {
  const stop = new AbortController();
  after(() => stop.abort());

  it('wakes a waiter for news of its category, and not for news of another', async () => {
    const news = new CategoryNews();
    const downloads = news.wait(60_000, stop.signal, interestOf(['download-']));
    news.announce(['account']);
    assert.equal(await settled(downloads), 'waiting');
    news.announce(['account', 'download']);
    assert.equal(await settled(downloads), true);
  });

  it('wakes every waiter for news whose categories are unknown, and for wakeAll', async () => {
    const news = new CategoryNews();
    const unknown = news.wait(60_000, stop.signal, interestOf(['download-']));
    news.announce(null);
    assert.equal(await settled(unknown), true);
    const notInterested = news.wait(60_000, stop.signal, () => false);
    news.wakeAll();
    assert.equal(await settled(notInterested), true);
  });

  it('answers false once the timeout passes or the signal aborts', async () => {
    const news = new CategoryNews();
    assert.equal(await news.wait(1, stop.signal), false);
    const aborting = new AbortController();
    const waiting = news.wait(60_000, aborting.signal);
    aborting.abort();
    assert.equal(await waiting, false);
    assert.equal(await news.wait(60_000, aborting.signal), false, 'an aborted signal ends the wait at once');
  });
});

describe('CategoryNews after a mark', () => {
  const downloads = interestOf(['download-']);

  it('tells what was heard since the mark: nothing, only other categories, or news of interest', () => {
    const news = new CategoryNews();
    const before = news.mark();
    assert.equal(news.heardSince(before, downloads), 'none');
    news.announce(['account']);
    assert.equal(news.heardSince(before, downloads), 'other');
    const afterAccount = news.mark();
    news.announce(['download']);
    assert.equal(news.heardSince(before, downloads), 'interesting');
    assert.equal(news.heardSince(afterAccount, downloads), 'interesting');
    assert.equal(news.heardSince(news.mark(), downloads), 'none', 'nothing since a new mark');
  });

  it('counts news of unknown categories and wakeAll as news of interest to everyone', () => {
    const news = new CategoryNews();
    const first = news.mark();
    news.announce(null);
    assert.equal(
      news.heardSince(first, () => false),
      'interesting',
    );
    const second = news.mark();
    news.wakeAll();
    assert.equal(
      news.heardSince(second, () => false),
      'interesting',
    );
  });

  it('ends a long wait within its bound for news of other categories, answering false', async () => {
    const news = new CategoryNews();
    const stop = new AbortController();
    const startedAt = Date.now();
    const waiting = news.wait(60_000, stop.signal, downloads, 20);
    news.announce(['account']);
    assert.equal(await waiting, false);
    assert.ok(Date.now() - startedAt < 30_000, 'long before its own timeout');
    const unbounded = news.wait(60_000, stop.signal, downloads);
    news.announce(['account']);
    assert.equal(await settled(unbounded), 'waiting', 'without a bound, other news changes nothing');
    stop.abort();
  });

  it('is not put off again and again by a steady stream of other news', async () => {
    const news = new CategoryNews();
    const stop = new AbortController();
    let announcing = true;
    const waiting = news.wait(60_000, stop.signal, downloads, 100).then((notified) => ({ notified, announcing }));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await settled(waiting.then(() => true))) === 'waiting') {
      news.announce(['account']);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    announcing = false;
    assert.deepEqual(await waiting, { notified: false, announcing: true }, 'ended while other news still came');
    stop.abort();
  });
});

describe('interestOf', () => {
  it('takes all news without a prefix filter, and news of the categories its prefixes can match with one', () => {
    assert.equal(interestOf(undefined)(['anything']), true);
    const interest = interestOf(['download-', 'acc']);
    assert.equal(interest(['download']), true);
    assert.equal(interest(['account']), true, 'a partial prefix matches the category it starts');
    assert.equal(interest(['lookup']), false);
    assert.equal(interestOf(['download-abc'])(['download']), true, 'a prefix inside the category');
    assert.equal(interest(null), true);
  });
});
