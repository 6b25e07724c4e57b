import type { InfoJobEvent } from './events.js';
import type { InfoJobState } from './state.js';

export function evolveInfoJob(state: InfoJobState, event: InfoJobEvent): InfoJobState {
  if (event.type === 'InfoRequested') return { status: 'pending', request: event.data, result: null, error: null, errorCode: null };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'InfoSucceeded':
      return { ...state, status: 'success', result: event.data.result };
    case 'InfoFailed':
      return { ...state, status: 'failed', error: event.data.error, errorCode: event.data.errorCode };
    default:
      return state;
  }
}
