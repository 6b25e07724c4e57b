import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';

export interface AudioTrack {
  type: 'original' | 'dubbed';
  /** ISO language code, or null when the platform gives none. */
  language: string | null;
}

/** What a successful info job answers. */
export interface VideoInfo {
  title: string;
  /** Whole seconds. */
  duration: number;
  /** The URL as submitted. */
  url: string;
  /** Only when asked for; the original track first. */
  audio?: AudioTrack[];
}

/** Admitted (its account reservation is already recorded); kept for polling until `expiresAt`. */
export type InfoRequested = DomainEvent<
  'InfoRequested',
  {
    jobId: string;
    accountId: string;
    /** As submitted; the job's result reports it back. */
    url: string;
    /** The video's canonical URL, which the extractor is given; absent from jobs recorded before it was, whose `url` was the canonical one. */
    videoUrl?: string;
    includeAudioTracks: boolean;
    requestedAt: string;
    expiresAt: string;
  }
>;

export type InfoSucceeded = DomainEvent<'InfoSucceeded', { jobId: string; accountId: string; result: VideoInfo; succeededAt: string }>;

/** `errorCode` is null for failures nobody recognised. */
export type InfoFailed = DomainEvent<
  'InfoFailed',
  { jobId: string; accountId: string; error: string; errorCode: DownloadErrorCode | null; failedAt: string }
>;

export type InfoJobEvent = InfoRequested | InfoSucceeded | InfoFailed;

export const INFO_JOB_EVENT_TYPES: readonly InfoJobEvent['type'][] = ['InfoRequested', 'InfoSucceeded', 'InfoFailed'];
