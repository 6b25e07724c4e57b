import { RuleViolationError } from '../errors.js';
import { addMonthsUtc } from './billing-period.js';
import type { ChangePlan, DisableAddOn, EnableAddOn, GrantExtraUnits, ScheduleCancellation } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';
import type { AddOnId, PlanTerms } from './plan.js';

/**
 * Between two monthly plans the period and its usage carry over, so an
 * upgrade lifts the limits at once; to or from a one-off plan a new period starts.
 */
export function changePlan(
  { plan, now }: ChangePlan['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  const keepsPeriod = state.plan?.renewsMonthly === true && plan.renewsMonthly && state.periodEnd !== null;
  const start = Date.parse(now);
  const periodStart = keepsPeriod ? new Date(state.periodStart).toISOString() : now;
  const periodEnd = keepsPeriod
    ? new Date(state.periodEnd as number).toISOString()
    : plan.renewsMonthly
      ? new Date(addMonthsUtc(start, 1)).toISOString()
      : null;
  const unavailable = state.addOns.filter((addOn) => !plan.addOnsAvailable.includes(addOn));
  return [
    { type: 'PlanChanged', data: { accountId, plan, periodStart, periodEnd, changedAt: now } },
    ...unavailable.map(
      (addOn): AccountEvent => ({ type: 'AddOnDisabled', data: { accountId, addOn, disabledAt: now } }),
    ),
  ];
}

/** The plan ends with its period and the fallback plan follows; asking again changes nothing. */
export function scheduleCancellation(
  { fallbackPlan, now }: ScheduleCancellation['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  if (state.plan === null || state.periodEnd === null) {
    throw new RuleViolationError('The current plan does not renew, so there is nothing to cancel');
  }
  if (state.cancellation !== null) return [];
  return [
    {
      type: 'PlanCancellationScheduled',
      data: { accountId, cancelAt: new Date(state.periodEnd).toISOString(), fallbackPlan, scheduledAt: now },
    },
  ];
}

export function enableAddOn(
  { addOn, now }: EnableAddOn['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  if (state.addOns.includes(addOn)) return [];
  assertAddOnAvailable(state.plan, addOn);
  return [{ type: 'AddOnEnabled', data: { accountId, addOn, enabledAt: now } }];
}

export function disableAddOn(
  { addOn, now }: DisableAddOn['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  if (!state.addOns.includes(addOn)) return [];
  return [{ type: 'AddOnDisabled', data: { accountId, addOn, disabledAt: now } }];
}

export function grantExtraUnits(data: GrantExtraUnits['data'], { accountId }: OpenAccountContext): AccountEvent[] {
  const { feature, units } = data;
  if (!Number.isInteger(units) || units <= 0) throw new RuleViolationError('units must be a positive integer');
  return [
    {
      type: 'ExtraUnitsGranted',
      data: { accountId, feature, units, reason: data.reason ?? null, grantedAt: data.now },
    },
  ];
}

export function assertAddOnAvailable(plan: PlanTerms | null, addOn: AddOnId): void {
  if (plan === null || !plan.addOnsAvailable.includes(addOn)) {
    throw new RuleViolationError(`The ${plan?.id ?? 'current'} plan does not offer the ${addOn} add-on`);
  }
}
