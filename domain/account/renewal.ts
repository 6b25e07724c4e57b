import { addMonthsUtc, periodContaining } from './billing-period.js';
import type { AccountEvent } from './events.js';
import { evolveAccount } from './evolve.js';
import type { AccountState } from './state.js';

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

/**
 * The events that bring an account's billing period up to `now`: a scheduled
 * cancellation that has come due switches to the fallback plan, and a period
 * that has ended renews (periods nobody used are skipped in one step).
 */
export function dueRenewals(state: AccountState, now: number): AccountEvent[] {
  const events: AccountEvent[] = [];
  let current = state;
  for (;;) {
    const next = nextRenewal(current, now);
    if (next === null) return events;
    events.push(next);
    current = evolveAccount(current, next);
  }
}

function nextRenewal(state: AccountState, now: number): AccountEvent | null {
  if (state.status !== 'open' || state.plan === null || state.periodEnd === null || now < state.periodEnd) return null;
  const accountId = state.accountId as string;
  if (state.cancellation !== null && state.cancellation.cancelAt <= now) {
    const { cancelAt, fallbackPlan } = state.cancellation;
    return {
      type: 'PlanChanged',
      data: {
        accountId,
        plan: fallbackPlan,
        periodStart: iso(cancelAt),
        periodEnd: fallbackPlan.renewsMonthly ? iso(addMonthsUtc(cancelAt, 1)) : null,
        changedAt: iso(cancelAt),
      },
    };
  }
  const period = periodContaining(state.periodAnchor, now);
  return {
    type: 'BillingPeriodRenewed',
    data: { accountId, periodStart: iso(period.start), periodEnd: iso(period.end) },
  };
}

/** The state as it stands at `now`, renewals included, without recording anything. */
export function accountStateAt(state: AccountState, now: number): AccountState {
  return dueRenewals(state, now).reduce(evolveAccount, state);
}
