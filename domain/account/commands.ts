import type { LookupFeature } from './lookups.js';
import type { AddOnId, FeatureId, PlanTerms } from './plan.js';

/** Every command carries `now` (ISO 8601): deciders never read a clock. */

export type OpenAccount = {
  type: 'OpenAccount';
  data: { accountId: string; name: string; email: string; plan: PlanTerms; addOns: AddOnId[]; now: string };
};
export type ChangePlan = { type: 'ChangePlan'; data: { plan: PlanTerms; now: string } };
export type ScheduleCancellation = { type: 'ScheduleCancellation'; data: { fallbackPlan: PlanTerms; now: string } };
export type EnableAddOn = { type: 'EnableAddOn'; data: { addOn: AddOnId; now: string } };
export type DisableAddOn = { type: 'DisableAddOn'; data: { addOn: AddOnId; now: string } };
export type GrantExtraUnits = {
  type: 'GrantExtraUnits';
  data: { feature: FeatureId; units: number; reason?: string; now: string };
};
export type IssueApiKey = {
  type: 'IssueApiKey';
  /** `name`: the holder's label for the key, when given. */
  data: {
    keyId: string;
    keyPrefix: string;
    keyHash: string;
    encryptedKey: string;
    now: string;
    name?: string;
    /** Polls and lists, never submits or changes anything. */
    readOnly?: boolean;
  };
};
export type RevokeApiKey = { type: 'RevokeApiKey'; data: { keyId: string; now: string } };
/** An operator's: the account's requests are refused with `reason` until it is reactivated. */
export type SuspendAccount = { type: 'SuspendAccount'; data: { reason: string; now: string } };
export type ReactivateAccount = { type: 'ReactivateAccount'; data: { now: string } };
/** For good: nothing new starts; jobs and lookups under way are still charged or released. */
export type CloseAccount = { type: 'CloseAccount'; data: { now: string } };
/** After closure, once the account's data key is destroyed: its personal data is unreadable from then on. */
export type EraseAccount = { type: 'EraseAccount'; data: { now: string } };
export type ReserveDownload = {
  type: 'ReserveDownload';
  data: { jobId: string; pendingLimit: number; now: string; idempotency?: { key: string; requestHash: string } };
};
export type ChargeBandwidth = { type: 'ChargeBandwidth'; data: { jobId: string; fileSizeBytes: number; now: string } };
/** `abandoned`: the job was never created, so an Idempotency-Key that admitted it is forgotten too. */
export type ReleaseDownload = { type: 'ReleaseDownload'; data: { jobId: string; now: string; abandoned?: boolean } };

/** Admits a lookup: holds `units` of the feature (refused past the allowance, or without the add-on) until charged or released. */
export type ReserveLookup = {
  type: 'ReserveLookup';
  data: { lookupId: string; feature: LookupFeature; units: number; subject: string; now: string };
};
/** Charges a reserved lookup `units` (at most what was reserved; default all of it). */
export type ChargeLookup = { type: 'ChargeLookup'; data: { lookupId: string; units?: number; now: string } };
export type ReleaseLookup = { type: 'ReleaseLookup'; data: { lookupId: string; now: string } };

export type AccountCommand =
  | OpenAccount
  | ChangePlan
  | ScheduleCancellation
  | EnableAddOn
  | DisableAddOn
  | GrantExtraUnits
  | IssueApiKey
  | RevokeApiKey
  | SuspendAccount
  | ReactivateAccount
  | CloseAccount
  | EraseAccount
  | ReserveDownload
  | ChargeBandwidth
  | ReleaseDownload
  | ReserveLookup
  | ChargeLookup
  | ReleaseLookup;
