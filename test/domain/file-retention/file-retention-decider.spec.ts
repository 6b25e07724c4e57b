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
  data: { jobId, accountId, fileKey, fileSize: 1234, actualFormat: 'audio', mimeType: 'audio/mp4', fileExtension: 'm4a', completedAt: '2026-03-01T00:00:00.000Z' },
};
const deleteFile = { type: 'DeleteFile' as const, data: { jobId, now: '2026-03-02T00:00:00.000Z' } };
const deleted: FileRetentionEvent = { type: 'FileDeleted', data: { jobId, accountId, fileKey, deletedAt: '2026-03-02T00:00:00.000Z' } };

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
});
