import type { PendingLookup } from './lookups.js';
import type { AddOnId, FeatureId, PlanTerms } from './plan.js';

/** Whether the account may be used: suspended by an operator (until reactivated), or closed for good. Times are Unix ms. */
export type AccountAccess =
  | { status: 'suspended'; reason: string; since: number }
  | { status: 'closed'; since: number; erasedAt?: number };

/** JSON-safe, so the read model can keep the folded state as it is. */
export interface AccountState {
  status: 'none' | 'open';
  accountId: string | null;
  name: string;
  email: string;
  plan: PlanTerms | null;
  /** Unix ms. */
  periodStart: number;
  /** Unix ms; null on plans that never renew. */
  periodEnd: number | null;
  /** The month-aligned anchor renewals count from. */
  periodAnchor: number;
  /** `scheduledAt` is when the cancellation was asked for; it takes effect at `cancelAt`. */
  cancellation: { cancelAt: number; scheduledAt: number; fallbackPlan: PlanTerms } | null;
  addOns: AddOnId[];
  /** Units used in the current period. */
  usage: Record<FeatureId, number>;
  /** Extra units granted for the current period. */
  extraGrants: Record<FeatureId, number>;
  /** Jobs admitted and not yet charged or released, oldest first. */
  pendingJobs: string[];
  /** Lookups admitted and not yet charged or released; absent in states stored before lookups existed. */
  pendingLookups?: PendingLookup[];
  apiKeys: Array<{ keyId: string; keyHash: string; revoked: boolean }>;
  /** Set while the account is suspended, and once it is closed; absent (or null) while it may be used. */
  access?: AccountAccess | null;
  /** Idempotency-Keys of admitted submissions, within retention; absent from states folded before keys existed. */
  idempotencyKeys?: RememberedSubmission[];
}

/** A submission admitted under an Idempotency-Key: a repeat with the same request hash gets this job back. */
export interface RememberedSubmission {
  key: string;
  requestHash: string;
  jobId: string;
  /** Unix ms. */
  reservedAt: number;
}

export function zeroFeatureCounts(): Record<FeatureId, number> {
  return { download_count: 0, bandwidth_mb: 0, info: 0, client_download: 0, channel_list: 0 };
}

export function initialAccountState(): AccountState {
  return {
    status: 'none',
    accountId: null,
    name: '',
    email: '',
    plan: null,
    periodStart: 0,
    periodEnd: null,
    periodAnchor: 0,
    cancellation: null,
    addOns: [],
    usage: zeroFeatureCounts(),
    extraGrants: zeroFeatureCounts(),
    pendingJobs: [],
    pendingLookups: [],
    apiKeys: [],
    idempotencyKeys: [],
  };
}
