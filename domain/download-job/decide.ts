import { InvalidTransitionError, JobAbandonedError, LeaseHeldError, LeaseLostError, NotFoundError } from '../errors.js';
import type { DownloadJobCommand } from './commands.js';
import type { DownloadJobEvent } from './events.js';
import type { DownloadJobState } from './state.js';

/**
 * Commands from workers arrive at least once, so repeating the transition
 * that already happened is a no-op; a transition out of another state is rejected.
 */
export function decideDownloadJob(command: DownloadJobCommand, state: DownloadJobState): DownloadJobEvent[] {
  if (command.type === 'AbandonJob') {
    if (state.status !== 'NONE') return [];
    const { jobId, accountId, now } = command.data;
    return [{ type: 'DownloadAbandoned', data: { jobId, accountId, abandonedAt: now } }];
  }
  if (state.status === 'ABANDONED') throw new JobAbandonedError(state.jobId);
  if (command.type === 'SubmitDownload') {
    if (state.status !== 'NONE') {
      if (state.request.jobId === command.data.jobId) return [];
      throw new InvalidTransitionError(`Job ${command.data.jobId} already exists`);
    }
    const { now, ...request } = command.data;
    return [{ type: 'DownloadRequested', data: { ...request, requestedAt: now } }];
  }
  if (state.status === 'NONE') throw new NotFoundError(`Job ${command.data.jobId} not found`);
  const { jobId, accountId } = state.request;
  switch (command.type) {
    case 'StartJob': {
      if (state.status === 'COMPLETED' || state.status === 'FAILED') {
        throw new InvalidTransitionError(`Job ${jobId} is ${state.status} and cannot start`);
      }
      const { leaseId, messageId, now } = command.data;
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
    case 'RecordAttemptFailure': {
      if (state.status !== 'IN_PROGRESS' || state.leaseId === null) return [];
      assertHoldsLease(state.leaseId, command.data.leaseId, jobId);
      const { errorCode, reason, now } = command.data;
      return [
        {
          type: 'DownloadAttemptFailed',
          data: { jobId, accountId, attempt: state.attempts, errorCode, reason, failedAt: now },
        },
      ];
    }
    case 'CompleteJob': {
      if (state.status === 'COMPLETED') {
        // The lease that completed the job stays recorded, so a late worker learns that its result was not the one kept.
        assertHoldsLease(state.leaseId, command.data.leaseId, jobId);
        return [];
      }
      if (state.status !== 'IN_PROGRESS')
        throw new InvalidTransitionError(`Job ${jobId} is ${state.status} and cannot complete`);
      assertHoldsLease(state.leaseId, command.data.leaseId, jobId);
      const { fileKey, fileSize, actualFormat, mimeType, fileExtension, now } = command.data;
      return [
        {
          type: 'DownloadCompleted',
          data: { jobId, accountId, fileKey, fileSize, actualFormat, mimeType, fileExtension, completedAt: now },
        },
      ];
    }
    case 'FailJob':
      if (state.status === 'FAILED') return [];
      if (state.status === 'COMPLETED') throw new InvalidTransitionError(`Job ${jobId} is COMPLETED and cannot fail`);
      assertHoldsLease(state.leaseId, command.data.leaseId, jobId);
      // A queued job may fail before it starts (its attempts ran out); startedAt then stays null.
      return [
        {
          type: 'DownloadFailed',
          data: {
            jobId,
            accountId,
            errorCode: command.data.errorCode,
            reason: command.data.reason,
            failedAt: command.data.now,
          },
        },
      ];
    default: {
      const unknown: never = command;
      throw new InvalidTransitionError(`Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}

/** A worker's command counts only while its lease is the job's; commands without a lease (operators') always do. */
function assertHoldsLease(held: string | null, claimed: string | undefined, jobId: string): void {
  if (claimed !== undefined && held !== null && held !== claimed) throw new LeaseLostError(jobId);
}
