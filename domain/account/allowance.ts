import type { FeatureId } from './plan.js';
import type { AccountState } from './state.js';

/** Whether `needed` units of `feature` fit the plan's allowance, the extra units granted and any `overage`. */
export function withinAllowance(state: AccountState, feature: FeatureId, needed: number, overage = 0): boolean {
  const allowance = state.plan?.allowances[feature] ?? 0;
  if (allowance === 'unlimited') return true;
  return needed <= allowance + state.extraGrants[feature] + overage;
}
