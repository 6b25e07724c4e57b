import type { ClientDownloadPlatform } from '../client-download-url.js';
import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';

/** A direct media URL the client fetches itself. */
export interface ClientDownloadLink {
  url: string;
  type: 'video' | 'audio';
  /** For video links, whether audio is muxed in; true for audio links. */
  hasAudio: boolean;
  width?: number;
  height?: number;
  /** kbit/s, audio links only. */
  audioBitrate?: number;
  sizeBytes?: number;
}

/** What a successful client-download job answers; optional fields only when the platform gives them. */
export interface ClientDownloadInfo {
  title: string;
  /** The URL as submitted. */
  url: string;
  /** Seconds. */
  duration: number;
  /** Best first. */
  downloadLinks: ClientDownloadLink[];
  description?: string;
  author?: string;
  authorUrl?: string;
  thumbnailUrl?: string;
}

/** Admitted (its account reservation is already recorded); kept for polling until `expiresAt`. */
export type ClientDownloadRequested = DomainEvent<
  'ClientDownloadRequested',
  {
    jobId: string;
    accountId: string;
    /** As submitted; the job's result reports it back. */
    url: string;
    /** The link rebuilt without fragment or extra query, which the extractor is given; absent from jobs recorded before it was. */
    canonicalUrl?: string;
    platform: ClientDownloadPlatform;
    requestedAt: string;
    expiresAt: string;
  }
>;

export type ClientDownloadSucceeded = DomainEvent<
  'ClientDownloadSucceeded',
  { jobId: string; accountId: string; result: ClientDownloadInfo; succeededAt: string }
>;

/** Clients see `error` only; `errorCode` (null when unrecognised) is for operators and auditors. */
export type ClientDownloadFailed = DomainEvent<
  'ClientDownloadFailed',
  { jobId: string; accountId: string; error: string; errorCode: DownloadErrorCode | null; failedAt: string }
>;

/**
 * A lookup attempt ended in a failure worth retrying; the job stays pending
 * for its next attempt. Counted here, so that only the extractor's failures
 * spend the job's attempts, never the service's own outages.
 */
export type ClientDownloadAttemptFailed = DomainEvent<
  'ClientDownloadAttemptFailed',
  { jobId: string; accountId: string; attempt: number; error: string; errorCode: DownloadErrorCode | null; failedAt: string }
>;

/**
 * The submission did not write its job within the grace period, so its
 * reservation is released; written only to a stream that does not exist yet,
 * it keeps the late submission from creating the job afterwards.
 */
export type ClientDownloadAbandoned = DomainEvent<'ClientDownloadAbandoned', { jobId: string; accountId: string; abandonedAt: string }>;

export type ClientDownloadJobEvent =
  | ClientDownloadRequested
  | ClientDownloadSucceeded
  | ClientDownloadFailed
  | ClientDownloadAttemptFailed
  | ClientDownloadAbandoned;

export const CLIENT_DOWNLOAD_JOB_EVENT_TYPES: readonly ClientDownloadJobEvent['type'][] = [
  'ClientDownloadRequested',
  'ClientDownloadSucceeded',
  'ClientDownloadFailed',
  'ClientDownloadAttemptFailed',
  'ClientDownloadAbandoned',
];
