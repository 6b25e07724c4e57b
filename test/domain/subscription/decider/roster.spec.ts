import assert from 'node:assert/strict';
import { InvalidTransitionError } from '../../../../domain/errors.js';
import { type RosterEvent, rosterDecider } from '../../../../domain/subscription/roster.js';
import { deciderSpecification } from '../../../support/decider-specification.js';

const spec = deciderSpecification(rosterDecider);
const accountId = 'acc-1';
const now = '2026-03-01T00:00:00.000Z';
const hold = (subscriptionId: string, limit = 2) =>
  ({ type: 'HoldSubscription', data: { accountId, subscriptionId, limit, now } }) as const;
const release = (subscriptionId: string) =>
  ({ type: 'ReleaseSubscription', data: { accountId, subscriptionId, now } }) as const;
const held = (subscriptionId: string): RosterEvent => ({
  type: 'SubscriptionSlotHeld',
  data: { accountId, subscriptionId, heldAt: now },
});
const released = (subscriptionId: string): RosterEvent => ({
  type: 'SubscriptionSlotReleased',
  data: { accountId, subscriptionId, releasedAt: now },
});

describe("subscription roster decider: an account's subscriptions within its plan", () => {
  it('holds a slot per subscription up to the limit, then refuses with the limit in the message', () => {
    spec
      .given([])
      .when(hold('s1'))
      .then([held('s1')]);
    spec
      .given([held('s1')])
      .when(hold('s2'))
      .then([held('s2')]);
    spec
      .given([held('s1'), held('s2')])
      .when(hold('s3'))
      .thenThrows(InvalidTransitionError, (error) => assert.match(error.message, /allows 2 subscriptions/));
  });

  it('a hold repeated for the same subscription does nothing, even at the limit', () => {
    spec
      .given([held('s1'), held('s2')])
      .when(hold('s2'))
      .thenNothingHappened();
  });

  it('a released slot makes room again; releasing one not held does nothing', () => {
    spec
      .given([held('s1'), held('s2'), released('s1')])
      .when(hold('s3'))
      .then([held('s3')]);
    spec
      .given([held('s1')])
      .when(release('s1'))
      .then([released('s1')]);
    spec
      .given([held('s1'), released('s1')])
      .when(release('s1'))
      .thenNothingHappened();
  });
});
