import type { SubscriptionCommandHandler } from './subscription-commands.js';

/** The `subscription.paused` body: which subscription paused itself, when, and why. */
export function subscriptionPausedBody(
  subscriptions: SubscriptionCommandHandler,
): (subscriptionId: string) => Promise<unknown> {
  return async (subscriptionId) => {
    const { state } = await subscriptions.load(subscriptionId);
    if (state.status === 'none') return { event: 'subscription.paused', subscriptionId };
    return {
      event: 'subscription.paused',
      subscriptionId,
      source: state.created.source,
      status: state.status,
      reason: state.pause?.reason ?? null,
      pausedAt: state.pause?.pausedAt ?? null,
    };
  };
}
