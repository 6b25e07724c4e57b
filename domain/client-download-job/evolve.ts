import type { ClientDownloadJobEvent } from './events.js';
import type { ClientDownloadJobState } from './state.js';

export function evolveClientDownloadJob(state: ClientDownloadJobState, event: ClientDownloadJobEvent): ClientDownloadJobState {
  if (event.type === 'ClientDownloadRequested') {
    return { status: 'pending', request: event.data, result: null, error: null, errorCode: null, failedAttempts: 0 };
  }
  if (event.type === 'ClientDownloadAbandoned') {
    return state.status === 'none' ? { status: 'abandoned', jobId: event.data.jobId, accountId: event.data.accountId } : state;
  }
  if (state.status === 'none' || state.status === 'abandoned') return state;
  switch (event.type) {
    case 'ClientDownloadAttemptFailed':
      return { ...state, failedAttempts: state.failedAttempts + 1 };
    case 'ClientDownloadSucceeded':
      return { ...state, status: 'success', result: event.data.result };
    case 'ClientDownloadFailed':
      return { ...state, status: 'failed', error: event.data.error, errorCode: event.data.errorCode };
    default:
      return state;
  }
}
