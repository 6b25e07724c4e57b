import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { DownloadRequested } from './events.js';

export type SubmitDownload = {
  type: 'SubmitDownload';
  data: Omit<DownloadRequested['data'], 'requestedAt'> & { now: string };
};
/**
 * Takes the job's lease for a worker's delivery. `messageId` names the queue
 * message, the same on each of its deliveries: another delivery of the
 * message that holds the lease means the queue gave up on the holder (its
 * worker stopped confirming), so it takes the lease over; a delivery of
 * another message for a held job is a duplicate. Deliveries are told apart
 * by `leaseId`, not by the queue's delivery count, which the server does not
 * keep strictly.
 */
export type StartJob = { type: 'StartJob'; data: { jobId: string; leaseId: string; messageId: string; now: string } };
/** `leaseId`: the worker's; a worker whose lease was taken over cannot complete or fail the job. Absent for operators' commands. */
export type CompleteJob = {
  type: 'CompleteJob';
  data: {
    jobId: string;
    fileKey: string;
    fileSize: number;
    actualFormat: MediaFormat;
    mimeType: string;
    fileExtension: string;
    now: string;
    leaseId?: string;
  };
};
export type FailJob = {
  type: 'FailJob';
  data: { jobId: string; errorCode: DownloadErrorCode | null; reason: string; now: string; leaseId?: string };
};
export type RecordAttemptFailure = {
  type: 'RecordAttemptFailure';
  data: { jobId: string; leaseId: string; errorCode: DownloadErrorCode | null; reason: string; now: string };
};

/** Only a job that was never written can be abandoned. */
export type AbandonJob = { type: 'AbandonJob'; data: { jobId: string; accountId: string; now: string } };

export type DownloadJobCommand = SubmitDownload | StartJob | CompleteJob | FailJob | RecordAttemptFailure | AbandonJob;
