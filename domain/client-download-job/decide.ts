import { InvalidTransitionError, JobAbandonedError, NotFoundError } from '../errors.js';
import { finishesLookupJob } from '../lookup-job-status.js';
import type { ClientDownloadJobCommand } from './commands.js';
import type { ClientDownloadJobEvent } from './events.js';
import type { ClientDownloadJobState } from './state.js';

export function decideClientDownloadJob(command: ClientDownloadJobCommand, state: ClientDownloadJobState): ClientDownloadJobEvent[] {
  if (command.type === 'AbandonClientDownload') {
    if (state.status !== 'none') return [];
    const { jobId, accountId, now } = command.data;
    return [{ type: 'ClientDownloadAbandoned', data: { jobId, accountId, abandonedAt: now } }];
  }
  if (state.status === 'abandoned') throw new JobAbandonedError(state.jobId);
  if (command.type === 'RequestClientDownload') {
    if (state.status !== 'none') {
      if (state.request.jobId === command.data.jobId) return [];
      throw new InvalidTransitionError(`Job ${command.data.jobId} already exists`);
    }
    const { now, ...request } = command.data;
    return [{ type: 'ClientDownloadRequested', data: { ...request, requestedAt: now } }];
  }
  if (state.status === 'none') throw new NotFoundError(`Job ${command.data.jobId} not found`);
  const { jobId, accountId } = state.request;
  switch (command.type) {
    case 'RecordClientDownloadAttemptFailure': {
      // A late report of a job that has finished meanwhile changes nothing, nor does a second report of one attempt
      // (two overlapping deliveries of the job, the first of them lapsed).
      const { attempt, error, errorCode, now } = command.data;
      if (state.status !== 'pending' || state.failedAttempts >= attempt) return [];
      return [
        { type: 'ClientDownloadAttemptFailed', data: { jobId, accountId, attempt: state.failedAttempts + 1, error, errorCode, failedAt: now } },
      ];
    }
    case 'CompleteClientDownload':
      if (!finishesLookupJob(jobId, state.status, 'success')) return [];
      if (command.data.result.downloadLinks.length === 0) throw new InvalidTransitionError(`Job ${jobId} cannot succeed without a download link`);
      return [{ type: 'ClientDownloadSucceeded', data: { jobId, accountId, result: command.data.result, succeededAt: command.data.now } }];
    case 'FailClientDownload':
      if (!finishesLookupJob(jobId, state.status, 'failed')) return [];
      return [
        { type: 'ClientDownloadFailed', data: { jobId, accountId, error: command.data.error, errorCode: command.data.errorCode, failedAt: command.data.now } },
      ];
    default: {
      const unknown: never = command;
      throw new InvalidTransitionError(`Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}
