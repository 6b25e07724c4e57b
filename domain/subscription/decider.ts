import type { Decider } from '../decider.js';
import type { SubscriptionCommand } from './commands.js';
import { decideSubscription } from './decide.js';
import type { SubscriptionEvent } from './events.js';
import { evolveSubscription } from './evolve.js';
import { type SubscriptionState, initialSubscriptionState } from './state.js';

export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  decide: decideSubscription,
  evolve: evolveSubscription,
  initialState: initialSubscriptionState,
};

/** Subscriptions live in `subscription-<subscriptionId>`. */
export const SUBSCRIPTION_CATEGORY = 'subscription';
