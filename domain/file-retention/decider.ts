import type { Decider } from '../decider.js';
import type { DownloadCompleted } from '../download-job/events.js';
import { InvalidTransitionError } from '../errors.js';
import type { FileDeleted } from './events.js';

/**
 * The life of a job's produced file, decided over the job's own stream
 * (`download-<jobId>`): it exists from DownloadCompleted until FileDeleted.
 * Only those two events matter here; the job's other events pass by.
 */
export type DeleteFile = { type: 'DeleteFile'; data: { jobId: string; now: string } };

export type FileRetentionEvent = DownloadCompleted | FileDeleted;

export type FileRetentionState =
  | { status: 'NO_FILE' }
  | { status: 'STORED'; jobId: string; accountId: string; fileKey: string }
  | { status: 'DELETED'; fileKey: string };

export const fileRetentionDecider: Decider<DeleteFile, FileRetentionEvent, FileRetentionState> = {
  initialState: () => ({ status: 'NO_FILE' }),
  decide(command, state) {
    // Sweepers repeat themselves after a crash: a second deletion is a no-op.
    if (state.status === 'DELETED') return [];
    if (state.status === 'NO_FILE') throw new InvalidTransitionError(`Job ${command.data.jobId} has no file to delete`);
    return [{ type: 'FileDeleted', data: { jobId: state.jobId, accountId: state.accountId, fileKey: state.fileKey, deletedAt: command.data.now } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DownloadCompleted':
        return state.status === 'NO_FILE' ? { status: 'STORED', jobId: event.data.jobId, accountId: event.data.accountId, fileKey: event.data.fileKey } : state;
      case 'FileDeleted':
        return { status: 'DELETED', fileKey: event.data.fileKey };
      default:
        return state;
    }
  },
};
