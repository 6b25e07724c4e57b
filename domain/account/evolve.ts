import type { AccountEvent } from './events.js';
import { rememberSubmission } from './idempotency.js';
import { type AccountState, zeroFeatureCounts } from './state.js';

const ms = (iso: string): number => Date.parse(iso);

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountOpened':
      return {
        ...state,
        status: 'open',
        accountId: event.data.accountId,
        name: event.data.name,
        email: event.data.email,
      };
    case 'ApiKeyIssued':
      return {
        ...state,
        apiKeys: [...state.apiKeys, { keyId: event.data.keyId, keyHash: event.data.keyHash, revoked: false }],
      };
    case 'ApiKeyRevoked':
      return {
        ...state,
        apiKeys: state.apiKeys.map((key) => (key.keyId === event.data.keyId ? { ...key, revoked: true } : key)),
      };
    case 'AccountSuspended':
      return {
        ...state,
        access: { status: 'suspended', reason: event.data.reason, since: ms(event.data.suspendedAt) },
      };
    case 'AccountReactivated':
      return { ...state, access: null };
    case 'AccountClosed':
      return { ...state, access: { status: 'closed', since: ms(event.data.closedAt) } };
    case 'AccountErased':
      return state.access?.status === 'closed'
        ? { ...state, access: { ...state.access, erasedAt: ms(event.data.erasedAt) } }
        : state;
    default:
      return evolvePlan(state, event);
  }
}

/** The plan, its period, add-ons and extra units: what the account may use. */
function evolvePlan(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'PlanChanged': {
      const periodStart = ms(event.data.periodStart);
      const newPeriod = periodStart !== state.periodStart || state.plan === null;
      return {
        ...state,
        plan: event.data.plan,
        periodStart,
        periodEnd: event.data.periodEnd === null ? null : ms(event.data.periodEnd),
        periodAnchor: newPeriod ? periodStart : state.periodAnchor,
        cancellation: null,
        usage: newPeriod ? zeroFeatureCounts() : state.usage,
        extraGrants: newPeriod ? zeroFeatureCounts() : state.extraGrants,
      };
    }
    case 'PlanCancellationScheduled':
      return {
        ...state,
        cancellation: {
          cancelAt: ms(event.data.cancelAt),
          scheduledAt: ms(event.data.scheduledAt),
          fallbackPlan: event.data.fallbackPlan,
        },
      };
    case 'BillingPeriodRenewed':
      return {
        ...state,
        periodStart: ms(event.data.periodStart),
        periodEnd: ms(event.data.periodEnd),
        usage: zeroFeatureCounts(),
        extraGrants: zeroFeatureCounts(),
      };
    case 'AddOnEnabled':
      return state.addOns.includes(event.data.addOn)
        ? state
        : { ...state, addOns: [...state.addOns, event.data.addOn] };
    case 'AddOnDisabled':
      return { ...state, addOns: state.addOns.filter((addOn) => addOn !== event.data.addOn) };
    case 'ExtraUnitsGranted':
      return {
        ...state,
        extraGrants: {
          ...state.extraGrants,
          [event.data.feature]: state.extraGrants[event.data.feature] + event.data.units,
        },
      };
    default:
      return evolveUsage(state, event);
  }
}

/** Reservations, charges and releases: what the account has used and holds. */
function evolveUsage(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'DownloadReserved': {
      const { jobId, idempotencyKey, requestHash } = event.data;
      const withJob = { ...state, pendingJobs: [...state.pendingJobs, jobId] };
      if (idempotencyKey === undefined || requestHash === undefined) return withJob;
      return {
        ...withJob,
        idempotencyKeys: rememberSubmission(state, {
          key: idempotencyKey,
          requestHash,
          jobId,
          reservedAt: ms(event.data.reservedAt),
        }),
      };
    }
    case 'BandwidthCharged':
      return {
        ...state,
        pendingJobs: state.pendingJobs.filter((jobId) => jobId !== event.data.jobId),
        usage: {
          ...state.usage,
          bandwidth_mb: state.usage.bandwidth_mb + event.data.bandwidthMb,
          download_count: state.usage.download_count + event.data.downloads,
        },
      };
    case 'DownloadReleased': {
      const pendingJobs = state.pendingJobs.filter((jobId) => jobId !== event.data.jobId);
      if (event.data.abandoned !== true) return { ...state, pendingJobs };
      return {
        ...state,
        pendingJobs,
        idempotencyKeys: (state.idempotencyKeys ?? []).filter((entry) => entry.jobId !== event.data.jobId),
      };
    }
    case 'LookupReserved': {
      const { lookupId, feature, units, subject } = event.data;
      return { ...state, pendingLookups: [...(state.pendingLookups ?? []), { lookupId, feature, units, subject }] };
    }
    case 'LookupCharged':
      return {
        ...state,
        pendingLookups: withoutLookup(state, event.data.lookupId),
        usage: { ...state.usage, [event.data.feature]: state.usage[event.data.feature] + event.data.units },
      };
    case 'LookupReleased':
      return { ...state, pendingLookups: withoutLookup(state, event.data.lookupId) };
    default:
      // Events of types this version does not know are skipped, so old code can read newer streams.
      return state;
  }
}

function withoutLookup(state: AccountState, lookupId: string): AccountState['pendingLookups'] {
  return (state.pendingLookups ?? []).filter((lookup) => lookup.lookupId !== lookupId);
}
