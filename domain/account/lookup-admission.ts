import { AddOnNotEnabledError, CreditLimitReachedError, RuleViolationError } from '../errors.js';
import { withinAllowance } from './allowance.js';
import type { ChargeLookup, ReleaseLookup, ReserveLookup } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';
import { isAddOn } from './plan.js';

/**
 * Admission of a lookup. The add-on comes first (enabling it is the fix, not
 * waiting); then every pending lookup of the feature holds its units, so
 * concurrent requests cannot together overrun the allowance.
 */
export function reserveLookup(data: ReserveLookup['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const pending = state.pendingLookups ?? [];
  if (pending.some((lookup) => lookup.lookupId === data.lookupId)) return [];
  const { feature, units } = data;
  if (isAddOn(feature) && !state.addOns.includes(feature)) throw new AddOnNotEnabledError(feature);
  if (!Number.isInteger(units) || units < 1) throw new RuleViolationError('units must be a positive integer');
  const held = pending.filter((lookup) => lookup.feature === feature).reduce((sum, lookup) => sum + lookup.units, 0);
  if (!withinAllowance(state, feature, state.usage[feature] + held + units)) throw new CreditLimitReachedError(feature);
  return [
    {
      type: 'LookupReserved',
      data: { accountId, lookupId: data.lookupId, feature, units, subject: data.subject, reservedAt: data.now },
    },
  ];
}

/** Only a pending lookup can be charged, so a repeated charge, or one after the release of a failed lookup, does nothing. */
export function chargeLookup(data: ChargeLookup['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const lookup = state.pendingLookups?.find((candidate) => candidate.lookupId === data.lookupId);
  if (lookup === undefined) return [];
  const units = data.units ?? lookup.units;
  if (!Number.isInteger(units) || units < 0 || units > lookup.units) {
    throw new RuleViolationError(`units must be a whole number from 0 to the ${lookup.units} reserved`);
  }
  const { lookupId, feature, subject } = lookup;
  return [{ type: 'LookupCharged', data: { accountId, lookupId, feature, units, subject, chargedAt: data.now } }];
}

export function releaseLookup(data: ReleaseLookup['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const lookup = state.pendingLookups?.find((candidate) => candidate.lookupId === data.lookupId);
  if (lookup === undefined) return [];
  const { lookupId, feature } = lookup;
  return [{ type: 'LookupReleased', data: { accountId, lookupId, feature, releasedAt: data.now } }];
}
