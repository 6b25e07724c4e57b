import { InvalidTransitionError, RuleViolationError } from '../errors.js';
import { addMonthsUtc } from './billing-period.js';
import type { OpenAccount } from './commands.js';
import type { AccountEvent } from './events.js';
import { assertAddOnAvailable } from './plan-decisions.js';
import type { AccountState } from './state.js';

/** Opens the account on its first plan, whose period starts now, with the add-ons asked for. */
export function openAccount(data: OpenAccount['data'], state: AccountState): AccountEvent[] {
  if (state.status !== 'none') throw new InvalidTransitionError(`Account ${data.accountId} is already open`);
  if (data.name.trim() === '') throw new RuleViolationError('name must not be empty');
  if (!/^[^@\s]+@[^@\s]+$/.test(data.email)) throw new RuleViolationError('email must be an email address');
  for (const addOn of data.addOns) assertAddOnAvailable(data.plan, addOn);
  const { accountId, now } = data;
  const start = Date.parse(now);
  return [
    { type: 'AccountOpened', data: { accountId, name: data.name, email: data.email, openedAt: now } },
    {
      type: 'PlanChanged',
      data: {
        accountId,
        plan: data.plan,
        periodStart: now,
        periodEnd: data.plan.renewsMonthly ? new Date(addMonthsUtc(start, 1)).toISOString() : null,
        changedAt: now,
      },
    },
    ...[...new Set(data.addOns)].map(
      (addOn): AccountEvent => ({ type: 'AddOnEnabled', data: { accountId, addOn, enabledAt: now } }),
    ),
  ];
}
