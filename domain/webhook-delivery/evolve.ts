import type { DownloadCompleted, DownloadFailed, DownloadRequested } from '../download-job/events.js';
import type { WebhookDeliveryOwnEvent } from './events.js';
import type { WebhookDeliveryState } from './state.js';

/** What the delivery reads from the job's stream: the job's own events it needs, and its own. */
export type WebhookDeliveryEvent = DownloadRequested | DownloadCompleted | DownloadFailed | WebhookDeliveryOwnEvent;

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'DownloadRequested':
      return {
        ...state,
        job: { jobId: event.data.jobId, accountId: event.data.accountId, webhookUrl: event.data.webhookUrl },
      };
    case 'DownloadCompleted':
      return state.terminal === null
        ? { ...state, terminal: { event: 'download.completed', at: event.data.completedAt } }
        : state;
    case 'DownloadFailed':
      return state.terminal === null
        ? { ...state, terminal: { event: 'download.failed', at: event.data.failedAt } }
        : state;
    case 'WebhookAttemptStarted': {
      const { attempt, workerId, startedAt, deadline } = event.data;
      return { ...state, attempts: attempt, inFlight: { attempt, workerId, startedAt, deadline } };
    }
    case 'WebhookAttemptSucceeded':
      return { ...state, inFlight: null, nextAttemptAt: null, finished: 'acknowledged' };
    case 'WebhookAttemptFailed':
      return { ...state, inFlight: null, nextAttemptAt: event.data.nextAttemptAt };
    case 'WebhookDeliveryStopped':
      return { ...state, finished: 'stopped' };
    case 'WebhookDeliveryGaveUp':
      return { ...state, finished: 'gave_up' };
    default:
      // The job's other events (and types newer than this code) say nothing about delivery.
      return state;
  }
}
