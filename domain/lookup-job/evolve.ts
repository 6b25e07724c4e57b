import type {
  LookupJobAbandoned,
  LookupJobEvent,
  LookupJobFailed,
  LookupJobRequested,
  LookupJobSucceeded,
} from './events.js';
import type { LookupJobKind } from './kind.js';
import { lookupJobEventTypes } from './names.js';
import type { LookupJobState } from './state.js';

type Evolve<Name extends string, Details, Result> = (
  state: LookupJobState<Details, Result>,
  event: LookupJobEvent<Name, Details, Result>,
) => LookupJobState<Details, Result>;

/** How one kind of lookup job's events fold; events are told apart by their names, which carry the kind's. */
export function evolveLookupJob<Name extends string, Details, Result>(
  kind: LookupJobKind<Name, Result>,
): Evolve<Name, Details, Result> {
  const events = lookupJobEventTypes(kind.name);
  return (state, event) => {
    if (event.type === events.requested) {
      const request = (event as LookupJobRequested<Name, Details>).data;
      return { status: 'pending', request, result: null, error: null, errorCode: null, failedAttempts: 0 };
    }
    if (event.type === events.abandoned) {
      const { jobId, accountId } = (event as LookupJobAbandoned<Name>).data;
      return state.status === 'none' ? { status: 'abandoned', jobId, accountId } : state;
    }
    if (state.status === 'none' || state.status === 'abandoned') return state;
    switch (event.type) {
      case events.attemptFailed:
        return { ...state, failedAttempts: state.failedAttempts + 1 };
      case events.succeeded:
        return { ...state, status: 'success', result: (event as LookupJobSucceeded<Name, Result>).data.result };
      case events.failed: {
        const { error, errorCode } = (event as LookupJobFailed<Name>).data;
        return { ...state, status: 'failed', error, errorCode };
      }
      default:
        return state;
    }
  };
}
