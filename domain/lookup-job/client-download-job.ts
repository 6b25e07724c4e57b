import type { ClientDownloadPlatform } from '../client-download-url.js';
import { InvalidTransitionError } from '../errors.js';
import { lookupJobDecider } from './decider.js';
import type { LookupJobEvent, LookupJobRequested } from './events.js';
import type { LookupJobKind } from './kind.js';
import { lookupJobEventTypes } from './names.js';

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

export interface ClientDownloadJobDetails {
  /** The link rebuilt without fragment or extra query, which the extractor is given; absent from jobs recorded before it was. */
  canonicalUrl?: string;
  platform: ClientDownloadPlatform;
}

/** Client-download jobs: a post's direct media links; they live in `clientdownload-<jobId>`. */
export const CLIENT_DOWNLOAD_JOB: LookupJobKind<'ClientDownload', ClientDownloadInfo> = {
  name: 'ClientDownload',
  category: 'clientdownload',
  checkResult(jobId, result) {
    if (result.downloadLinks.length === 0)
      throw new InvalidTransitionError(`Job ${jobId} cannot succeed without a download link`);
  },
};
export const CLIENT_DOWNLOAD_JOB_CATEGORY = CLIENT_DOWNLOAD_JOB.category;

export type ClientDownloadJobEvent = LookupJobEvent<'ClientDownload', ClientDownloadJobDetails, ClientDownloadInfo>;
export type ClientDownloadRequested = LookupJobRequested<'ClientDownload', ClientDownloadJobDetails>;

export const clientDownloadJobDecider = lookupJobDecider<
  'ClientDownload',
  ClientDownloadJobDetails,
  ClientDownloadInfo
>(CLIENT_DOWNLOAD_JOB);
export const CLIENT_DOWNLOAD_JOB_EVENT_TYPES: readonly ClientDownloadJobEvent['type'][] = Object.values(
  lookupJobEventTypes(CLIENT_DOWNLOAD_JOB.name),
);
