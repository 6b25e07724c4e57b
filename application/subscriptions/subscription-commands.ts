import type { SubscriptionCommand } from '../../domain/subscription/commands.js';
import type { SubscriptionEvent } from '../../domain/subscription/events.js';
import type { RosterCommand, RosterEvent, RosterState } from '../../domain/subscription/roster.js';
import type { SubscriptionState } from '../../domain/subscription/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of `subscription-<subscriptionId>` streams. */
export type SubscriptionCommandHandler = CommandHandler<SubscriptionCommand, SubscriptionEvent, SubscriptionState>;

/** The command handler of `subscriptionRoster-<accountId>` streams. */
export type RosterCommandHandler = CommandHandler<RosterCommand, RosterEvent, RosterState>;

/** Every check, listing and job of a subscription is correlated to it, so an auditor finds them together. */
export function subscriptionCorrelation(subscriptionId: string): { correlationId: string } {
  return { correlationId: `subscription-${subscriptionId}` };
}
