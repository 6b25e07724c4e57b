import {
  CreditLimitReachedError,
  IdempotencyKeyReusedError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../errors.js';
import { withinAllowance } from './allowance.js';
import { chargeableMegabytes, MINIMUM_CHARGE_MB } from './bandwidth.js';
import type { ChargeBandwidth, ReleaseDownload, ReserveDownload } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';
import { rememberedSubmission } from './idempotency.js';

/**
 * Admission of a download. Credit is checked before the pending limit because
 * it is not cleared by waiting for jobs. Every pending job holds the minimum
 * charge, so concurrent submissions cannot together overrun the allowance.
 */
export function reserveDownload(
  data: ReserveDownload['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
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

/** Only a pending job can be charged, so a redelivered charge finds nothing to do. */
export function chargeBandwidth(
  data: ChargeBandwidth['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  const { jobId, fileSizeBytes, now } = data;
  if (!state.pendingJobs.includes(jobId)) return [];
  if (!Number.isInteger(fileSizeBytes) || fileSizeBytes < 0)
    throw new RuleViolationError('fileSizeBytes must be a non-negative integer');
  const bandwidthMb = chargeableMegabytes(fileSizeBytes);
  return [
    { type: 'BandwidthCharged', data: { accountId, jobId, fileSizeBytes, bandwidthMb, downloads: 1, chargedAt: now } },
  ];
}

export function releaseDownload(
  data: ReleaseDownload['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  const { jobId, now } = data;
  if (!state.pendingJobs.includes(jobId)) return [];
  return [
    {
      type: 'DownloadReleased',
      data: { accountId, jobId, releasedAt: now, ...(data.abandoned === true ? { abandoned: true } : {}) },
    },
  ];
}
