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
  { jobId: string; accountId: string; url: string; platform: ClientDownloadPlatform; requestedAt: string; expiresAt: string }
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

export type ClientDownloadJobEvent = ClientDownloadRequested | ClientDownloadSucceeded | ClientDownloadFailed;

export const CLIENT_DOWNLOAD_JOB_EVENT_TYPES: readonly ClientDownloadJobEvent['type'][] = [
  'ClientDownloadRequested',
  'ClientDownloadSucceeded',
  'ClientDownloadFailed',
];
