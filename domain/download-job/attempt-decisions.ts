import { InvalidTransitionError, LeaseHeldError, LeaseLostError } from '../errors.js';
import type { CompleteJob, FailJob, RecordAttemptFailure, StartJob } from './commands.js';
import type { DownloadJobEvent } from './events.js';
import type { RequestedJobContext } from './state.js';

export function startJob(data: StartJob['data'], { state, jobId, accountId }: RequestedJobContext): DownloadJobEvent[] {
  if (state.status === 'COMPLETED' || state.status === 'FAILED') {
    throw new InvalidTransitionError(`Job ${jobId} is ${state.status} and cannot start`);
  }
  const { leaseId, messageId, now } = data;
  if (state.status === 'IN_PROGRESS' && state.leaseId !== null) {
    if (state.leaseId === leaseId) return [];
    // A lease whose message is not recorded is taken over: a job left held by no one would never finish.
    if (state.leaseMessageId !== null && state.leaseMessageId !== messageId) throw new LeaseHeldError(jobId);
  }
  return [
    {
      type: 'DownloadStarted',
      data: { jobId, accountId, attempt: state.attempts + 1, startedAt: now, leaseId, messageId },
    },
  ];
}

export function recordAttemptFailure(
  data: RecordAttemptFailure['data'],
  { state, jobId, accountId }: RequestedJobContext,
): DownloadJobEvent[] {
  if (state.status !== 'IN_PROGRESS' || state.leaseId === null) return [];
  assertHoldsLease(state.leaseId, data.leaseId, jobId);
  const { errorCode, reason, now } = data;
  return [
    {
      type: 'DownloadAttemptFailed',
      data: { jobId, accountId, attempt: state.attempts, errorCode, reason, failedAt: now },
    },
  ];
}

export function completeJob(
  data: CompleteJob['data'],
  { state, jobId, accountId }: RequestedJobContext,
): DownloadJobEvent[] {
  if (state.status === 'COMPLETED') {
    // The lease that completed the job stays recorded, so a late worker learns that its result was not the one kept.
    assertHoldsLease(state.leaseId, data.leaseId, jobId);
    return [];
  }
  if (state.status !== 'IN_PROGRESS')
    throw new InvalidTransitionError(`Job ${jobId} is ${state.status} and cannot complete`);
  assertHoldsLease(state.leaseId, data.leaseId, jobId);
  const { fileKey, fileSize, actualFormat, mimeType, fileExtension, now } = data;
  return [
    {
      type: 'DownloadCompleted',
      data: { jobId, accountId, fileKey, fileSize, actualFormat, mimeType, fileExtension, completedAt: now },
    },
  ];
}

/** A queued job may fail before it starts (its attempts ran out); startedAt then stays null. */
export function failJob(data: FailJob['data'], { state, jobId, accountId }: RequestedJobContext): DownloadJobEvent[] {
  if (state.status === 'FAILED') return [];
  if (state.status === 'COMPLETED') throw new InvalidTransitionError(`Job ${jobId} is COMPLETED and cannot fail`);
  assertHoldsLease(state.leaseId, data.leaseId, jobId);
  const { errorCode, reason, now } = data;
  return [{ type: 'DownloadFailed', data: { jobId, accountId, errorCode, reason, failedAt: now } }];
}

/** A worker's command counts only while its lease is the job's; commands without a lease (operators') always do. */
function assertHoldsLease(held: string | null, claimed: string | undefined, jobId: string): void {
  if (claimed !== undefined && held !== null && held !== claimed) throw new LeaseLostError(jobId);
}
