export const PLAN_IDS = ['free', 'starter', 'growth', 'scale', 'custom'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const FEATURE_IDS = ['download_count', 'bandwidth_mb', 'info', 'client_download', 'channel_list'] as const;
export type FeatureId = (typeof FEATURE_IDS)[number];

/** Features that exist only where the add-on is enabled. */
export const ADD_ON_IDS = ['client_download', 'channel_list'] as const;
export type AddOnId = (typeof ADD_ON_IDS)[number];

export function isAddOn(feature: FeatureId): feature is AddOnId {
  return (ADD_ON_IDS as readonly string[]).includes(feature);
}

/** A number of units per period, or no limit at all. */
export type Allowance = number | 'unlimited';

/**
 * The terms of a plan as they were when the account took it. Events carry a
 * copy, so replaying an account's history never depends on today's catalog.
 */
export interface PlanTerms {
  id: PlanId;
  allowances: Record<FeatureId, Allowance>;
  /** Megabytes a period may go past `bandwidth_mb` before downloads are refused. */
  bandwidthOverageMb: number;
  /** Per-file size limit; video formats are capped down to stay under it. */
  maxFileSizeMb: number;
  /** Add-ons this plan may enable. */
  addOnsAvailable: AddOnId[];
  /** False for one-off grants that never reset (the free plan). */
  renewsMonthly: boolean;
}
