import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { DownloadRequested } from './events.js';

export type SubmitDownload = { type: 'SubmitDownload'; data: Omit<DownloadRequested['data'], 'requestedAt'> & { now: string } };
export type StartJob = { type: 'StartJob'; data: { jobId: string; attempt: number; now: string } };
export type CompleteJob = {
  type: 'CompleteJob';
  data: { jobId: string; fileKey: string; fileSize: number; actualFormat: MediaFormat; mimeType: string; fileExtension: string; now: string };
};
export type FailJob = { type: 'FailJob'; data: { jobId: string; errorCode: DownloadErrorCode | null; reason: string; now: string } };

/** Only a job that was never written can be abandoned. */
export type AbandonJob = { type: 'AbandonJob'; data: { jobId: string; accountId: string; now: string } };

export type DownloadJobCommand = SubmitDownload | StartJob | CompleteJob | FailJob | AbandonJob;
