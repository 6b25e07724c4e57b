import {
  AddOnNotEnabledError,
  CreditLimitReachedError,
  IdempotencyKeyReusedError,
  InvalidTransitionError,
  NotFoundError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../errors.js';
import { chargeableMegabytes, MINIMUM_CHARGE_MB } from './bandwidth.js';
import { addMonthsUtc } from './billing-period.js';
import { rememberedSubmission } from './idempotency.js';
import type { AccountCommand, ChargeLookup, ReserveDownload, ReserveLookup } from './commands.js';
import type { AccountEvent } from './events.js';
import { evolveAccount } from './evolve.js';
import { type AddOnId, type FeatureId, type PlanTerms, isAddOn } from './plan.js';
import { dueRenewals } from './renewal.js';
import type { AccountState } from './state.js';

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type === 'OpenAccount') return openAccount(command.data, state);
  if (state.status !== 'open' || state.accountId === null) throw new NotFoundError('Account not found');
  const now = Date.parse(command.data.now);
  const renewals = dueRenewals(state, now);
  const current = renewals.reduce(evolveAccount, state);
  const effect = decideOnOpenAccount(command, current, current.accountId as string);
  // Renewals are recorded only along with a change, so a no-op command stays a no-op.
  return effect.length === 0 ? [] : [...renewals, ...effect];
}

function decideOnOpenAccount(
  command: Exclude<AccountCommand, { type: 'OpenAccount' }>,
  state: AccountState,
  accountId: string,
): AccountEvent[] {
  const now = command.data.now;
  switch (command.type) {
    case 'ChangePlan':
      return changePlan(state, accountId, command.data.plan, now);
    case 'ScheduleCancellation': {
      if (state.plan === null || state.periodEnd === null) {
        throw new RuleViolationError('The current plan does not renew, so there is nothing to cancel');
      }
      if (state.cancellation !== null) return [];
      return [
        {
          type: 'PlanCancellationScheduled',
          data: {
            accountId,
            cancelAt: new Date(state.periodEnd).toISOString(),
            fallbackPlan: command.data.fallbackPlan,
            scheduledAt: now,
          },
        },
      ];
    }
    case 'EnableAddOn': {
      const { addOn } = command.data;
      if (state.addOns.includes(addOn)) return [];
      assertAddOnAvailable(state.plan, addOn);
      return [{ type: 'AddOnEnabled', data: { accountId, addOn, enabledAt: now } }];
    }
    case 'DisableAddOn': {
      const { addOn } = command.data;
      if (!state.addOns.includes(addOn)) return [];
      return [{ type: 'AddOnDisabled', data: { accountId, addOn, disabledAt: now } }];
    }
    case 'GrantExtraUnits': {
      const { feature, units } = command.data;
      if (!Number.isInteger(units) || units <= 0) throw new RuleViolationError('units must be a positive integer');
      return [
        {
          type: 'ExtraUnitsGranted',
          data: { accountId, feature, units, reason: command.data.reason ?? null, grantedAt: now },
        },
      ];
    }
    case 'IssueApiKey': {
      const { keyId, keyPrefix, keyHash, encryptedKey } = command.data;
      if (state.apiKeys.some((key) => key.keyId === keyId)) return [];
      return [{ type: 'ApiKeyIssued', data: { accountId, keyId, keyPrefix, keyHash, encryptedKey, issuedAt: now } }];
    }
    case 'RevokeApiKey': {
      const key = state.apiKeys.find((candidate) => candidate.keyId === command.data.keyId);
      if (key === undefined) throw new NotFoundError(`API key ${command.data.keyId} not found`);
      if (key.revoked) return [];
      return [{ type: 'ApiKeyRevoked', data: { accountId, keyId: key.keyId, revokedAt: now } }];
    }
    case 'ReserveDownload':
      return reserveDownload(state, accountId, command.data);
    case 'ChargeBandwidth': {
      const { jobId, fileSizeBytes } = command.data;
      // Only a pending job can be charged, so a redelivered charge finds nothing to do.
      if (!state.pendingJobs.includes(jobId)) return [];
      if (!Number.isInteger(fileSizeBytes) || fileSizeBytes < 0)
        throw new RuleViolationError('fileSizeBytes must be a non-negative integer');
      return [
        {
          type: 'BandwidthCharged',
          data: {
            accountId,
            jobId,
            fileSizeBytes,
            bandwidthMb: chargeableMegabytes(fileSizeBytes),
            downloads: 1,
            chargedAt: now,
          },
        },
      ];
    }
    case 'ReleaseDownload': {
      const { jobId } = command.data;
      if (!state.pendingJobs.includes(jobId)) return [];
      return [
        {
          type: 'DownloadReleased',
          data: { accountId, jobId, releasedAt: now, ...(command.data.abandoned === true ? { abandoned: true } : {}) },
        },
      ];
    }
    case 'ReserveLookup':
      return reserveLookup(state, accountId, command.data);
    case 'ChargeLookup':
      return chargeLookup(state, accountId, command.data);
    case 'ReleaseLookup': {
      const lookup = state.pendingLookups?.find((candidate) => candidate.lookupId === command.data.lookupId);
      if (lookup === undefined) return [];
      return [
        {
          type: 'LookupReleased',
          data: { accountId, lookupId: lookup.lookupId, feature: lookup.feature, releasedAt: now },
        },
      ];
    }
    default: {
      const unknown: never = command;
      throw new InvalidTransitionError(`Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}

function openAccount(
  data: Extract<AccountCommand, { type: 'OpenAccount' }>['data'],
  state: AccountState,
): AccountEvent[] {
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

/**
 * Between two monthly plans the period and its usage carry over, so an
 * upgrade lifts the limits at once; to or from a one-off plan a new period starts.
 */
function changePlan(state: AccountState, accountId: string, plan: PlanTerms, now: string): AccountEvent[] {
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

function assertAddOnAvailable(plan: PlanTerms | null, addOn: AddOnId): void {
  if (plan === null || !plan.addOnsAvailable.includes(addOn)) {
    throw new RuleViolationError(`The ${plan?.id ?? 'current'} plan does not offer the ${addOn} add-on`);
  }
}

/**
 * Admission of a download. Credit is checked before the pending limit because
 * it is not cleared by waiting for jobs. Every pending job holds the minimum
 * charge, so concurrent submissions cannot together overrun the allowance.
 */
function reserveDownload(state: AccountState, accountId: string, data: ReserveDownload['data']): AccountEvent[] {
  if (state.pendingJobs.includes(data.jobId)) return [];
  // A repeat is answered before any limit: the first request was admitted, and a retry must not be refused for what it holds itself.
  if (data.idempotency !== undefined) {
    const earlier = rememberedSubmission(state, data.idempotency.key, Date.parse(data.now));
    if (earlier !== null) {
      if (earlier.requestHash !== data.idempotency.requestHash)
        throw new IdempotencyKeyReusedError(data.idempotency.key);
      return [];
    }
  }
  const pending = state.pendingJobs.length;
  if (!withinAllowance(state, 'download_count', state.usage.download_count + pending + 1)) {
    throw new CreditLimitReachedError('download_count');
  }
  const bandwidthNeeded = state.usage.bandwidth_mb + (pending + 1) * MINIMUM_CHARGE_MB;
  if (!withinAllowance(state, 'bandwidth_mb', bandwidthNeeded, state.plan?.bandwidthOverageMb ?? 0)) {
    throw new CreditLimitReachedError('bandwidth_mb');
  }
  if (pending >= data.pendingLimit) throw new PendingDownloadsLimitError(pending, data.pendingLimit);
  const idempotency =
    data.idempotency === undefined
      ? {}
      : { idempotencyKey: data.idempotency.key, requestHash: data.idempotency.requestHash };
  return [{ type: 'DownloadReserved', data: { accountId, jobId: data.jobId, reservedAt: data.now, ...idempotency } }];
}

/**
 * Admission of a lookup. The add-on comes first (enabling it is the fix, not
 * waiting); then every pending lookup of the feature holds its units, so
 * concurrent requests cannot together overrun the allowance.
 */
function reserveLookup(state: AccountState, accountId: string, data: ReserveLookup['data']): AccountEvent[] {
  const pending = state.pendingLookups ?? [];
  if (pending.some((lookup) => lookup.lookupId === data.lookupId)) return [];
  const { feature, units } = data;
  if (isAddOn(feature) && !state.addOns.includes(feature)) throw new AddOnNotEnabledError(feature);
  if (!Number.isInteger(units) || units < 1) throw new RuleViolationError('units must be a positive integer');
  const held = pending.filter((lookup) => lookup.feature === feature).reduce((sum, lookup) => sum + lookup.units, 0);
  if (!withinAllowance(state, feature, state.usage[feature] + held + units)) throw new CreditLimitReachedError(feature);
  return [
    {
      type: 'LookupReserved',
      data: { accountId, lookupId: data.lookupId, feature, units, subject: data.subject, reservedAt: data.now },
    },
  ];
}

/** Only a pending lookup can be charged, so a repeated charge, or one after the release of a failed lookup, does nothing. */
function chargeLookup(state: AccountState, accountId: string, data: ChargeLookup['data']): AccountEvent[] {
  const lookup = state.pendingLookups?.find((candidate) => candidate.lookupId === data.lookupId);
  if (lookup === undefined) return [];
  const units = data.units ?? lookup.units;
  if (!Number.isInteger(units) || units < 0 || units > lookup.units) {
    throw new RuleViolationError(`units must be a whole number from 0 to the ${lookup.units} reserved`);
  }
  return [
    {
      type: 'LookupCharged',
      data: {
        accountId,
        lookupId: lookup.lookupId,
        feature: lookup.feature,
        units,
        subject: lookup.subject,
        chargedAt: data.now,
      },
    },
  ];
}

function withinAllowance(state: AccountState, feature: FeatureId, needed: number, overage = 0): boolean {
  const allowance = state.plan?.allowances[feature] ?? 0;
  if (allowance === 'unlimited') return true;
  return needed <= allowance + state.extraGrants[feature] + overage;
}
