import type { FileRetentionEvent } from '../../../domain/file-retention/decider.js';
import { fileRetentionDecider } from '../../../domain/file-retention/decider.js';
import { InvalidTransitionError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(fileRetentionDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const fileKey = 'acc-1/job-1.m4a';
const completed: FileRetentionEvent = {
  type: 'DownloadCompleted',
  data: {
    jobId,
    accountId,
    fileKey,
    fileSize: 1234,
    actualFormat: 'audio',
    mimeType: 'audio/mp4',
    fileExtension: 'm4a',
    completedAt: '2026-03-01T00:00:00.000Z',
  },
};
const deleteFile = { type: 'DeleteFile' as const, data: { jobId, now: '2026-03-02T00:00:00.000Z' } };
const deleted: FileRetentionEvent = {
  type: 'FileDeleted',
  data: { jobId, accountId, fileKey, deletedAt: '2026-03-02T00:00:00.000Z' },
};
const started: FileRetentionEvent = {
  type: 'DownloadStarted',
  data: { jobId, accountId, attempt: 1, startedAt: '2026-03-01T00:00:00.000Z', leaseId: '1:1' },
};
const failed: FileRetentionEvent = {
  type: 'DownloadFailed',
  data: { jobId, accountId, errorCode: 'PRIVATE_VIDEO', reason: 'private', failedAt: '2026-03-01T00:01:00.000Z' },
};
const failedJobFilesDeleted: FileRetentionEvent = {
  type: 'FailedJobFilesDeleted',
  data: { jobId, accountId, deletedAt: '2026-03-02T00:00:00.000Z' },
};

describe('file retention decider', () => {
  it('records the deletion of a completed job’s file', () => {
    spec.given([completed]).when(deleteFile).then([deleted]);
  });
  it('records it once, however often the sweeper repeats itself', () => {
    spec.given([completed, deleted]).when(deleteFile).thenNothingHappened();
  });
  it('refuses a job without a file', () => {
    spec.given([]).when(deleteFile).thenThrows(InvalidTransitionError);
  });
  it('records the deletion of a completed job’s file after its attempts started', () => {
    spec.given([started, completed]).when(deleteFile).then([deleted]);
  });
  it('records the deletion of the files a failed job’s attempts may have stored, once', () => {
    spec.given([started, failed]).when(deleteFile).then([failedJobFilesDeleted]);
    spec.given([started, failed, failedJobFilesDeleted]).when(deleteFile).thenNothingHappened();
  });
  it('refuses a job still running, which may store its file yet, and a failed job that never started', () => {
    spec.given([started]).when(deleteFile).thenThrows(InvalidTransitionError);
    spec.given([failed]).when(deleteFile).thenThrows(InvalidTransitionError);
  });
});
