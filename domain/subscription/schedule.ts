import { nextCheckNotBefore } from './check-schedule.js';
import type { SubscriptionEvent } from './events.js';
import type { SubscriptionContext } from './state.js';

/**
 * The next check of an active subscription with no check under way, after
 * `now` (and not before `notBefore`) on the subscription's own phase of its
 * interval; none otherwise: a paused or deleted subscription checks nothing,
 * and a check under way schedules the next when it ends.
 */
export function nextCheck(
  { state, subscriptionId, accountId }: SubscriptionContext,
  now: string,
  notBefore: string | null = null,
): SubscriptionEvent[] {
  if (state.status !== 'active' || state.checkInProgress !== null) return [];
  const checkAt = nextCheckNotBefore(subscriptionId, state.settings.checkEveryMinutes, now, notBefore);
  return [{ type: 'SubscriptionCheckScheduled', data: { subscriptionId, accountId, checkAt, scheduledAt: now } }];
}
