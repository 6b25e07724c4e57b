import assert from 'node:assert/strict';
import { ReadSubscriptions } from '../../../application/subscriptions/read-subscriptions.js';
import type { SubscriptionRow } from '../../../application/subscriptions/subscription-read-model.js';
import { subscriptionView } from '../../../application/subscriptions/subscription-view.js';
import { subscriptionHarness } from './subscription-harness.js';

/** A read model that answers one row, as of whatever revision the test gives it. */
function readModelOf(row: () => SubscriptionRow | null) {
  return { get: async () => row(), list: async () => ({ items: [], total: 0 }), due: async () => [] };
}

describe('reading one subscription: exact, whatever the read model has caught up with', () => {
  it('answers the read model’s row when it is as new as the stream, and the stream when the row is behind', async () => {
    const h = await subscriptionHarness();
    const created = await h.subscribe();
    const { subscriptionId } = created;
    const { state, revision } = await h.subscriptions.load(subscriptionId);
    assert.ok(state.status === 'active');
    const marked = { ...(subscriptionView(state) ?? created), format: 'as the row says' as never };
    let row: SubscriptionRow = { view: marked, revision };
    const read = new ReadSubscriptions(
      readModelOf(() => row),
      h.subscriptions,
      h.store,
    );
    assert.equal((await read.get(h.accountId, subscriptionId))?.format, 'as the row says');

    await h.subscriptions.handle(subscriptionId, {
      type: 'DeleteSubscription',
      data: { subscriptionId, now: h.now() },
    });
    assert.equal(await read.get(h.accountId, subscriptionId), null, 'deleted, though the row still shows it');
    row = { view: null, revision: revision + 1 };
    assert.equal(await read.get(h.accountId, subscriptionId), null);
  });

  it('answers another account’s subscription as none, from the row or from the stream', async () => {
    const h = await subscriptionHarness();
    const { subscriptionId } = await h.subscribe();
    const read = new ReadSubscriptions(
      readModelOf(() => null),
      h.subscriptions,
      h.store,
    );
    assert.equal(await read.get('another-account', subscriptionId), null);
    assert.equal((await read.get(h.accountId, subscriptionId))?.subscriptionId, subscriptionId);
  });
});
