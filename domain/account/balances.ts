import { type FeatureId, FEATURE_IDS, isAddOn } from './plan.js';
import { accountStateAt } from './renewal.js';
import type { AccountState } from './state.js';

export interface FeatureBalance {
  granted: number;
  used: number;
  remaining: number;
  unlimited: boolean;
  /** Unix ms; null for one-off grants that never reset. */
  resetsAt: number | null;
}

/** Features shown to the account: the base ones always, add-ons only where enabled. */
export function visibleFeatures(state: AccountState): FeatureId[] {
  return FEATURE_IDS.filter((feature) => !isAddOn(feature) || state.addOns.includes(feature));
}

export function featureBalance(state: AccountState, feature: FeatureId): FeatureBalance {
  const allowance = state.plan?.allowances[feature] ?? 0;
  const used = state.usage[feature];
  const resetsAt = state.periodEnd;
  if (allowance === 'unlimited') return { granted: 0, used, remaining: 0, unlimited: true, resetsAt };
  const granted = allowance + state.extraGrants[feature];
  return { granted, used, remaining: Math.max(0, granted - used), unlimited: false, resetsAt };
}

/** Balances at `now`: a period that ended since the last event reads as renewed. */
export function accountBalances(state: AccountState, now: number): Partial<Record<FeatureId, FeatureBalance>> {
  const current = accountStateAt(state, now);
  const balances: Partial<Record<FeatureId, FeatureBalance>> = {};
  for (const feature of visibleFeatures(current)) balances[feature] = featureBalance(current, feature);
  return balances;
}
