import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';

export interface DownloadRequest {
  /** As submitted; the job reports it back. */
  url: string;
  /** The video's canonical URL, which the extractor is given; absent from jobs submitted before it was recorded. */
  videoUrl?: string;
  format: MediaFormat;
  startTime: number | null;
  endTime: number | null;
  language: string | null;
  webhookUrl: string | null;
}

/** The job was admitted (its account reservation is already recorded) and waits for a worker. */
export type DownloadRequested = DomainEvent<
  'DownloadRequested',
  DownloadRequest & {
    jobId: string;
    accountId: string;
    title: string;
    /** Full video duration, whole seconds. */
    duration: number;
    /** The plan's per-file size limit at submission. */
    maxFileSizeBytes: number;
    requestedAt: string;
  }
>;

/**
 * A worker took the job for an attempt; `leaseId` names that worker's
 * delivery, `messageId` the queue message delivered (each absent from events
 * written before it was recorded).
 */
export type DownloadStarted = DomainEvent<
  'DownloadStarted',
  { jobId: string; accountId: string; attempt: number; startedAt: string; leaseId?: string; messageId?: string }
>;

/** An attempt ended in a download error worth retrying; the job waits for its next attempt. */
export type DownloadAttemptFailed = DomainEvent<
  'DownloadAttemptFailed',
  {
    jobId: string;
    accountId: string;
    attempt: number;
    errorCode: DownloadErrorCode | null;
    reason: string;
    failedAt: string;
  }
>;

/** The file is stored; `fileKey` names it in the file store. */
export type DownloadCompleted = DomainEvent<
  'DownloadCompleted',
  {
    jobId: string;
    accountId: string;
    fileKey: string;
    fileSize: number;
    actualFormat: MediaFormat;
    mimeType: string;
    fileExtension: string;
    completedAt: string;
  }
>;

/** `reason` is for operators and auditors; clients see only `errorCode`. */
export type DownloadFailed = DomainEvent<
  'DownloadFailed',
  { jobId: string; accountId: string; errorCode: DownloadErrorCode | null; reason: string; failedAt: string }
>;

/**
 * The submission did not write its job within the grace period, so its
 * reservation is released; written only to a stream that does not exist yet,
 * it keeps the late submission from creating the job afterwards.
 */
export type DownloadAbandoned = DomainEvent<
  'DownloadAbandoned',
  { jobId: string; accountId: string; abandonedAt: string }
>;

export type DownloadJobEvent =
  | DownloadRequested
  | DownloadStarted
  | DownloadAttemptFailed
  | DownloadCompleted
  | DownloadFailed
  | DownloadAbandoned;

export const DOWNLOAD_JOB_EVENT_TYPES: readonly DownloadJobEvent['type'][] = [
  'DownloadRequested',
  'DownloadStarted',
  'DownloadAttemptFailed',
  'DownloadCompleted',
  'DownloadFailed',
  'DownloadAbandoned',
];
