import { InvalidTransitionError, JobAbandonedError, NotFoundError } from '../errors.js';
import { finishesLookupJob } from '../lookup-job-status.js';
import type { InfoJobCommand } from './commands.js';
import type { InfoJobEvent } from './events.js';
import type { InfoJobState } from './state.js';

export function decideInfoJob(command: InfoJobCommand, state: InfoJobState): InfoJobEvent[] {
  if (command.type === 'AbandonInfo') {
    if (state.status !== 'none') return [];
    const { jobId, accountId, now } = command.data;
    return [{ type: 'InfoAbandoned', data: { jobId, accountId, abandonedAt: now } }];
  }
  if (state.status === 'abandoned') throw new JobAbandonedError(state.jobId);
  if (command.type === 'RequestInfo') {
    if (state.status !== 'none') {
      if (state.request.jobId === command.data.jobId) return [];
      throw new InvalidTransitionError(`Job ${command.data.jobId} already exists`);
    }
    const { now, ...request } = command.data;
    return [{ type: 'InfoRequested', data: { ...request, requestedAt: now } }];
  }
  if (state.status === 'none') throw new NotFoundError(`Job ${command.data.jobId} not found`);
  const { jobId, accountId } = state.request;
  switch (command.type) {
    case 'RecordInfoAttemptFailure': {
      // A late report of a job that has finished meanwhile changes nothing, nor does a second report of one attempt
      // (two overlapping deliveries of the job, the first of them lapsed).
      const { attempt, error, errorCode, now } = command.data;
      if (state.status !== 'pending' || state.failedAttempts >= attempt) return [];
      return [{ type: 'InfoAttemptFailed', data: { jobId, accountId, attempt: state.failedAttempts + 1, error, errorCode, failedAt: now } }];
    }
    case 'CompleteInfo':
      if (!finishesLookupJob(jobId, state.status, 'success')) return [];
      return [{ type: 'InfoSucceeded', data: { jobId, accountId, result: command.data.result, succeededAt: command.data.now } }];
    case 'FailInfo':
      if (!finishesLookupJob(jobId, state.status, 'failed')) return [];
      return [{ type: 'InfoFailed', data: { jobId, accountId, error: command.data.error, errorCode: command.data.errorCode, failedAt: command.data.now } }];
    default: {
      const unknown: never = command;
      throw new InvalidTransitionError(`Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}
