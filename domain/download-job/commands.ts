import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { DownloadRequested } from './events.js';

export type SubmitDownload = { type: 'SubmitDownload'; data: Omit<DownloadRequested['data'], 'requestedAt'> & { now: string } };
/**
 * Takes the job's lease for a worker's delivery. `redelivered`: the queue
 * gave up on an earlier delivery (its worker stopped confirming), so this one
 * may take the lease over; a first delivery of a job someone holds is a duplicate.
 */
export type StartJob = { type: 'StartJob'; data: { jobId: string; leaseId: string; redelivered: boolean; now: string } };
/** `leaseId`: the worker's; a worker whose lease was taken over cannot complete or fail the job. Absent for operators' commands. */
export type CompleteJob = {
  type: 'CompleteJob';
  data: { jobId: string; fileKey: string; fileSize: number; actualFormat: MediaFormat; mimeType: string; fileExtension: string; now: string; leaseId?: string };
};
export type FailJob = { type: 'FailJob'; data: { jobId: string; errorCode: DownloadErrorCode | null; reason: string; now: string; leaseId?: string } };
export type RecordAttemptFailure = {
  type: 'RecordAttemptFailure';
  data: { jobId: string; leaseId: string; errorCode: DownloadErrorCode | null; reason: string; now: string };
};

/** Only a job that was never written can be abandoned. */
export type AbandonJob = { type: 'AbandonJob'; data: { jobId: string; accountId: string; now: string } };

export type DownloadJobCommand = SubmitDownload | StartJob | CompleteJob | FailJob | RecordAttemptFailure | AbandonJob;
