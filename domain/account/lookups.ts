import type { FeatureId } from './plan.js';

/** Features metered per request rather than by bandwidth: each lookup reserves units at admission and is charged on success. */
export const LOOKUP_FEATURES = ['info', 'client_download', 'channel_list'] as const satisfies readonly FeatureId[];
export type LookupFeature = (typeof LOOKUP_FEATURES)[number];

/** A lookup admitted and not yet charged or released. */
export interface PendingLookup {
  lookupId: string;
  feature: LookupFeature;
  units: number;
  /** What was looked up (a video or channel URL), for the ledger. */
  subject: string;
}

const CHANNEL_LIST_ITEMS_PER_UNIT = 10;

/** A channel listing costs one unit per 10 items, rounded up. */
export function channelListUnits(items: number): number {
  return Math.ceil(items / CHANNEL_LIST_ITEMS_PER_UNIT);
}
