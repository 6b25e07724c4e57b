import type { PlanId } from '../account/plan.js';
import type { Decider, DomainEvent } from '../decider.js';
import { InvalidTransitionError } from '../errors.js';

/** How many subscriptions an account on each plan may hold at once. */
export const SUBSCRIPTION_ALLOWANCE: Readonly<Record<PlanId, number>> = {
  // The free plan offers no channel listing, which every check is.
  free: 0,
  starter: 10,
  growth: 50,
  scale: 200,
  custom: 1000,
};

export type RosterCommand =
  | { type: 'HoldSubscription'; data: { accountId: string; subscriptionId: string; limit: number; now: string } }
  | { type: 'ReleaseSubscription'; data: { accountId: string; subscriptionId: string; now: string } };

export type RosterEvent =
  | DomainEvent<'SubscriptionSlotHeld', { accountId: string; subscriptionId: string; heldAt: string }>
  | DomainEvent<'SubscriptionSlotReleased', { accountId: string; subscriptionId: string; releasedAt: string }>;

/** The subscriptions an account holds: counted in one stream per account, so concurrent creations cannot pass the limit. */
export interface RosterState {
  held: Readonly<Record<string, true>>;
}

function decideRoster(command: RosterCommand, state: RosterState): RosterEvent[] {
  const { accountId, subscriptionId, now } = command.data;
  const holds = Object.hasOwn(state.held, subscriptionId);
  if (command.type === 'ReleaseSubscription')
    return holds ? [{ type: 'SubscriptionSlotReleased', data: { accountId, subscriptionId, releasedAt: now } }] : [];
  if (holds) return [];
  const { limit } = command.data;
  if (Object.keys(state.held).length >= limit)
    throw new InvalidTransitionError(
      `The account's plan allows ${limit} subscription${limit === 1 ? '' : 's'}; delete one before adding another`,
    );
  return [{ type: 'SubscriptionSlotHeld', data: { accountId, subscriptionId, heldAt: now } }];
}

function evolveRoster(state: RosterState, event: RosterEvent): RosterState {
  const { subscriptionId } = event.data;
  if (event.type === 'SubscriptionSlotHeld') return { held: { ...state.held, [subscriptionId]: true } };
  const { [subscriptionId]: _released, ...held } = state.held;
  return { held };
}

export const rosterDecider: Decider<RosterCommand, RosterEvent, RosterState> = {
  decide: decideRoster,
  evolve: evolveRoster,
  initialState: () => ({ held: {} }),
};

/** An account's roster lives in `subscriptionRoster-<accountId>`. */
export const ROSTER_CATEGORY = 'subscriptionRoster';
