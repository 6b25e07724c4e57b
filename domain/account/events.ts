import type { DomainEvent } from '../decider.js';
import type { LookupFeature } from './lookups.js';
import type { AddOnId, FeatureId, PlanTerms } from './plan.js';

/** All times are ISO 8601 strings; sizes are bytes or whole megabytes as named. */

export type AccountOpened = DomainEvent<
  'AccountOpened',
  { accountId: string; name: string; email: string; openedAt: string }
>;

/** Starts a new billing period under `plan`; `periodEnd` is null for plans that never renew. */
export type PlanChanged = DomainEvent<
  'PlanChanged',
  { accountId: string; plan: PlanTerms; periodStart: string; periodEnd: string | null; changedAt: string }
>;

/** At `cancelAt` (the end of the current period) the account falls back to `fallbackPlan`. */
export type PlanCancellationScheduled = DomainEvent<
  'PlanCancellationScheduled',
  { accountId: string; cancelAt: string; fallbackPlan: PlanTerms; scheduledAt: string }
>;

export type BillingPeriodRenewed = DomainEvent<
  'BillingPeriodRenewed',
  { accountId: string; periodStart: string; periodEnd: string }
>;

export type AddOnEnabled = DomainEvent<'AddOnEnabled', { accountId: string; addOn: AddOnId; enabledAt: string }>;
export type AddOnDisabled = DomainEvent<'AddOnDisabled', { accountId: string; addOn: AddOnId; disabledAt: string }>;

/** Extra units for the current period only (or for good, on a plan that never renews). */
export type ExtraUnitsGranted = DomainEvent<
  'ExtraUnitsGranted',
  { accountId: string; feature: FeatureId; units: number; reason: string | null; grantedAt: string }
>;

/** The key itself is never stored: only its hash (for lookup) and its encryption (it signs webhooks). */
export type ApiKeyIssued = DomainEvent<
  'ApiKeyIssued',
  {
    accountId: string;
    keyId: string;
    keyPrefix: string;
    keyHash: string;
    encryptedKey: string;
    issuedAt: string;
    /** The holder's label; absent from keys issued without one (and from every key issued before labels). */
    name?: string;
    /** Present (true) on a key that may only poll and list; absent on every other key. */
    readOnly?: true;
  }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { accountId: string; keyId: string; revokedAt: string }>;

/** Requests of the account are refused with `reason` from now on. */
export type AccountSuspended = DomainEvent<
  'AccountSuspended',
  { accountId: string; reason: string; suspendedAt: string }
>;
export type AccountReactivated = DomainEvent<'AccountReactivated', { accountId: string; reactivatedAt: string }>;
/** Final: the account's requests are refused; what was under way is still settled. */
export type AccountClosed = DomainEvent<'AccountClosed', { accountId: string; closedAt: string }>;
/** The closed account's data key is destroyed: its personal fields read as erased in every stream from now on. */
export type AccountErased = DomainEvent<'AccountErased', { accountId: string; erasedAt: string }>;

/**
 * A download was admitted: it holds a pending slot and a provisional bandwidth reservation until charged or released.
 * A submission with an Idempotency-Key records it and the request's hash.
 */
export type DownloadReserved = DomainEvent<
  'DownloadReserved',
  { accountId: string; jobId: string; reservedAt: string; idempotencyKey?: string; requestHash?: string }
>;

/** A completed download is billed: bandwidth at max(size, 20 MB) and one download; its slot is freed. */
export type BandwidthCharged = DomainEvent<
  'BandwidthCharged',
  { accountId: string; jobId: string; fileSizeBytes: number; bandwidthMb: number; downloads: number; chargedAt: string }
>;

/** A failed (or abandoned, never created) download frees its slot; nothing is charged. */
export type DownloadReleased = DomainEvent<
  'DownloadReleased',
  { accountId: string; jobId: string; releasedAt: string; abandoned?: boolean }
>;

/** A lookup (info job, client-download job, channel listing) was admitted and holds `units` until charged or released. */
export type LookupReserved = DomainEvent<
  'LookupReserved',
  { accountId: string; lookupId: string; feature: LookupFeature; units: number; subject: string; reservedAt: string }
>;

/** A successful lookup is billed `units` of its feature; its reservation is freed. */
export type LookupCharged = DomainEvent<
  'LookupCharged',
  { accountId: string; lookupId: string; feature: LookupFeature; units: number; subject: string; chargedAt: string }
>;

/** A failed (or abandoned) lookup frees its reservation; nothing is charged. */
export type LookupReleased = DomainEvent<
  'LookupReleased',
  { accountId: string; lookupId: string; feature: LookupFeature; releasedAt: string }
>;

export type AccountEvent =
  | AccountOpened
  | PlanChanged
  | PlanCancellationScheduled
  | BillingPeriodRenewed
  | AddOnEnabled
  | AddOnDisabled
  | ExtraUnitsGranted
  | ApiKeyIssued
  | ApiKeyRevoked
  | AccountSuspended
  | AccountReactivated
  | AccountClosed
  | AccountErased
  | DownloadReserved
  | BandwidthCharged
  | DownloadReleased
  | LookupReserved
  | LookupCharged
  | LookupReleased;

export const ACCOUNT_EVENT_TYPES: readonly AccountEvent['type'][] = [
  'AccountOpened',
  'PlanChanged',
  'PlanCancellationScheduled',
  'BillingPeriodRenewed',
  'AddOnEnabled',
  'AddOnDisabled',
  'ExtraUnitsGranted',
  'ApiKeyIssued',
  'ApiKeyRevoked',
  'AccountSuspended',
  'AccountReactivated',
  'AccountClosed',
  'AccountErased',
  'DownloadReserved',
  'BandwidthCharged',
  'DownloadReleased',
  'LookupReserved',
  'LookupCharged',
  'LookupReleased',
];
