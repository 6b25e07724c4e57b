import { InvalidTransitionError, JobAbandonedError, NotFoundError } from '../errors.js';
import type {
  AbandonLookupJob,
  CompleteLookupJob,
  FailLookupJob,
  LookupJobCommand,
  RecordLookupJobAttemptFailure,
  RequestLookupJob,
} from './commands.js';
import type { LookupJobEvent, LookupJobRequest } from './events.js';
import type { LookupJobKind } from './kind.js';
import { lookupJobCommandTypes, lookupJobEventTypes } from './names.js';
import type { LookupJobState } from './state.js';
import { finishesLookupJob } from './status.js';

type Decide<Name extends string, Details, Result> = (
  command: LookupJobCommand<Name, Details, Result>,
  state: LookupJobState<Details, Result>,
) => LookupJobEvent<Name, Details, Result>[];

/** The decisions of one kind of lookup job; its commands are told apart by their names, which carry the kind's. */
export function decideLookupJob<Name extends string, Details, Result>(
  kind: LookupJobKind<Name, Result>,
): Decide<Name, Details, Result> {
  const commands = lookupJobCommandTypes(kind.name);
  const events = lookupJobEventTypes(kind.name);
  return (command, state) => {
    if (command.type === commands.abandon) {
      if (state.status !== 'none') return [];
      const { jobId, accountId, now } = (command as AbandonLookupJob<Name>).data;
      return [{ type: events.abandoned, data: { jobId, accountId, abandonedAt: now } }];
    }
    if (state.status === 'abandoned') throw new JobAbandonedError(state.jobId);
    if (command.type === commands.request) {
      const { now, ...request } = (command as RequestLookupJob<Name, Details>).data;
      // Rest and spread of a generic type lose what TypeScript knows of them, though the fields are the request's.
      if (state.status === 'none')
        return [{ type: events.requested, data: { ...request, requestedAt: now } as LookupJobRequest & Details }];
      if (state.request.jobId === request.jobId) return [];
      throw new InvalidTransitionError(`Job ${request.jobId} already exists`);
    }
    if (state.status === 'none') throw new NotFoundError(`Job ${command.data.jobId} not found`);
    const { jobId, accountId } = state.request;
    switch (command.type) {
      case commands.recordAttemptFailure: {
        // A late report of a job that has finished meanwhile changes nothing, nor does a second report of one attempt
        // (two overlapping deliveries of the job, the first of them lapsed).
        const { attempt, error, errorCode, now } = (command as RecordLookupJobAttemptFailure<Name>).data;
        if (state.status !== 'pending' || state.failedAttempts >= attempt) return [];
        return [
          {
            type: events.attemptFailed,
            data: { jobId, accountId, attempt: state.failedAttempts + 1, error, errorCode, failedAt: now },
          },
        ];
      }
      case commands.complete: {
        const { result, now } = (command as CompleteLookupJob<Name, Result>).data;
        if (!finishesLookupJob(jobId, state.status, 'success')) return [];
        kind.checkResult?.(jobId, result);
        return [{ type: events.succeeded, data: { jobId, accountId, result, succeededAt: now } }];
      }
      case commands.fail: {
        const { error, errorCode, now } = (command as FailLookupJob<Name>).data;
        if (!finishesLookupJob(jobId, state.status, 'failed')) return [];
        return [{ type: events.failed, data: { jobId, accountId, error, errorCode, failedAt: now } }];
      }
      default:
        throw new InvalidTransitionError(`Unknown command ${command.type}`);
    }
  };
}
