import type { DownloadJobEvent } from './events.js';
import type { DownloadJobState } from './state.js';

export function evolveDownloadJob(state: DownloadJobState, event: DownloadJobEvent): DownloadJobState {
  if (event.type === 'DownloadRequested') {
    return {
      status: 'IN_QUEUE',
      request: event.data,
      startedAt: null,
      attempts: 0,
      failedAttempts: 0,
      leaseId: null,
      leaseMessageId: null,
      completedAt: null,
      result: null,
      errorCode: null,
      failureReason: null,
    };
  }
  if (event.type === 'DownloadAbandoned') {
    return state.status === 'NONE'
      ? { status: 'ABANDONED', jobId: event.data.jobId, accountId: event.data.accountId }
      : state;
  }
  if (state.status === 'NONE' || state.status === 'ABANDONED') return state;
  switch (event.type) {
    case 'DownloadStarted':
      return {
        ...state,
        status: 'IN_PROGRESS',
        startedAt: state.startedAt ?? event.data.startedAt,
        attempts: event.data.attempt,
        leaseId: event.data.leaseId ?? null,
        leaseMessageId: event.data.messageId ?? null,
      };
    case 'DownloadAttemptFailed':
      return { ...state, failedAttempts: (state.failedAttempts ?? 0) + 1, leaseId: null, leaseMessageId: null };
    case 'DownloadCompleted': {
      const { fileKey, fileSize, actualFormat, mimeType, fileExtension, completedAt } = event.data;
      return {
        ...state,
        status: 'COMPLETED',
        completedAt,
        result: { fileKey, fileSize, actualFormat, mimeType, fileExtension },
      };
    }
    case 'DownloadFailed':
      return {
        ...state,
        status: 'FAILED',
        completedAt: event.data.failedAt,
        errorCode: event.data.errorCode,
        failureReason: event.data.reason,
      };
    default:
      return state;
  }
}
