import { type DecisionsByType, decideByType } from '../decide-by-type.js';
import { InvalidTransitionError, JobAbandonedError, NotFoundError } from '../errors.js';
import { completeJob, failJob, recordAttemptFailure, startJob } from './attempt-decisions.js';
import type { AbandonJob, DownloadJobCommand, SubmitDownload } from './commands.js';
import type { DownloadJobEvent } from './events.js';
import type { DownloadJobState, RequestedJobContext } from './state.js';

/** The commands a requested job takes, from its workers or an operator. */
const ON_REQUESTED_JOB: DecisionsByType<
  Exclude<DownloadJobCommand, AbandonJob | SubmitDownload>,
  RequestedJobContext,
  DownloadJobEvent
> = {
  StartJob: startJob,
  RecordAttemptFailure: recordAttemptFailure,
  CompleteJob: completeJob,
  FailJob: failJob,
};

/**
 * Commands from workers arrive at least once, so repeating the transition
 * that already happened is a no-op; a transition out of another state is rejected.
 */
export function decideDownloadJob(command: DownloadJobCommand, state: DownloadJobState): DownloadJobEvent[] {
  if (command.type === 'AbandonJob') return abandonJob(command.data, state);
  if (state.status === 'ABANDONED') throw new JobAbandonedError(state.jobId);
  if (command.type === 'SubmitDownload') return submitDownload(command.data, state);
  if (state.status === 'NONE') throw new NotFoundError(`Job ${command.data.jobId} not found`);
  const { jobId, accountId } = state.request;
  return decideByType(ON_REQUESTED_JOB, command, { state, jobId, accountId });
}

/** Only a job that was never written can be abandoned; one written meanwhile stays. */
function abandonJob(data: AbandonJob['data'], state: DownloadJobState): DownloadJobEvent[] {
  if (state.status !== 'NONE') return [];
  const { jobId, accountId, now } = data;
  return [{ type: 'DownloadAbandoned', data: { jobId, accountId, abandonedAt: now } }];
}

/** A repeated submission of the same job does nothing; another job under its id is refused. */
function submitDownload(
  data: SubmitDownload['data'],
  state: Exclude<DownloadJobState, { status: 'ABANDONED' }>,
): DownloadJobEvent[] {
  if (state.status !== 'NONE') {
    if (state.request.jobId === data.jobId) return [];
    throw new InvalidTransitionError(`Job ${data.jobId} already exists`);
  }
  const { now, ...request } = data;
  return [{ type: 'DownloadRequested', data: { ...request, requestedAt: now } }];
}
