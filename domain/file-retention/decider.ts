import type { Decider } from '../decider.js';
import type { DownloadCompleted, DownloadFailed, DownloadStarted } from '../download-job/events.js';
import { InvalidTransitionError } from '../errors.js';
import type { FailedJobFilesDeleted, FileDeleted } from './events.js';

/**
 * The life of a job's stored files, decided over the job's own stream
 * (`download-<jobId>`). Every attempt may store a file; the completed one is
 * served until FileDeleted. A job that failed after an attempt started may
 * have files of attempts that never completed, until FailedJobFilesDeleted.
 * The job's other events pass by.
 */
export type DeleteFile = { type: 'DeleteFile'; data: { jobId: string; now: string } };

export type FileRetentionEvent =
  | DownloadStarted
  | DownloadCompleted
  | DownloadFailed
  | FileDeleted
  | FailedJobFilesDeleted;

export type FileRetentionState =
  | { status: 'NO_FILE' }
  | { status: 'ATTEMPTING'; jobId: string; accountId: string }
  | { status: 'STORED'; jobId: string; accountId: string; fileKey: string }
  | { status: 'FAILED_AFTER_ATTEMPTS'; jobId: string; accountId: string }
  | { status: 'DELETED' };

export const fileRetentionDecider: Decider<DeleteFile, FileRetentionEvent, FileRetentionState> = {
  initialState: () => ({ status: 'NO_FILE' }),
  decide(command, state) {
    // Sweepers repeat themselves after a crash: a second deletion is a no-op.
    if (state.status === 'DELETED') return [];
    if (state.status === 'STORED') {
      return [
        {
          type: 'FileDeleted',
          data: { jobId: state.jobId, accountId: state.accountId, fileKey: state.fileKey, deletedAt: command.data.now },
        },
      ];
    }
    if (state.status === 'FAILED_AFTER_ATTEMPTS') {
      return [
        {
          type: 'FailedJobFilesDeleted',
          data: { jobId: state.jobId, accountId: state.accountId, deletedAt: command.data.now },
        },
      ];
    }
    // A job still running may store its file yet; one that never started has none.
    throw new InvalidTransitionError(`Job ${command.data.jobId} has no file to delete`);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DownloadStarted':
        return state.status === 'NO_FILE'
          ? { status: 'ATTEMPTING', jobId: event.data.jobId, accountId: event.data.accountId }
          : state;
      case 'DownloadCompleted':
        return state.status === 'NO_FILE' || state.status === 'ATTEMPTING'
          ? { status: 'STORED', jobId: event.data.jobId, accountId: event.data.accountId, fileKey: event.data.fileKey }
          : state;
      case 'DownloadFailed':
        return state.status === 'ATTEMPTING'
          ? { status: 'FAILED_AFTER_ATTEMPTS', jobId: state.jobId, accountId: state.accountId }
          : state;
      case 'FileDeleted':
      case 'FailedJobFilesDeleted':
        return { status: 'DELETED' };
      default:
        return state;
    }
  },
};
