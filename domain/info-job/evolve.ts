import type { InfoJobEvent } from './events.js';
import type { InfoJobState } from './state.js';

export function evolveInfoJob(state: InfoJobState, event: InfoJobEvent): InfoJobState {
  if (event.type === 'InfoRequested') return { status: 'pending', request: event.data, result: null, error: null, errorCode: null, failedAttempts: 0 };
  if (event.type === 'InfoAbandoned') {
    return state.status === 'none' ? { status: 'abandoned', jobId: event.data.jobId, accountId: event.data.accountId } : state;
  }
  if (state.status === 'none' || state.status === 'abandoned') return state;
  switch (event.type) {
    case 'InfoAttemptFailed':
      return { ...state, failedAttempts: state.failedAttempts + 1 };
    case 'InfoSucceeded':
      return { ...state, status: 'success', result: event.data.result };
    case 'InfoFailed':
      return { ...state, status: 'failed', error: event.data.error, errorCode: event.data.errorCode };
    default:
      return state;
  }
}
