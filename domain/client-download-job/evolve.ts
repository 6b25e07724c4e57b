import type { ClientDownloadJobEvent } from './events.js';
import type { ClientDownloadJobState } from './state.js';

export function evolveClientDownloadJob(state: ClientDownloadJobState, event: ClientDownloadJobEvent): ClientDownloadJobState {
  if (event.type === 'ClientDownloadRequested') return { status: 'pending', request: event.data, result: null, error: null, errorCode: null };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ClientDownloadSucceeded':
      return { ...state, status: 'success', result: event.data.result };
    case 'ClientDownloadFailed':
      return { ...state, status: 'failed', error: event.data.error, errorCode: event.data.errorCode };
    default:
      return state;
  }
}
