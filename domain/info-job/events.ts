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

/**
 * A lookup attempt ended in a failure worth retrying; the job stays pending
 * for its next attempt. Counted here, so that only the extractor's failures
 * spend the job's attempts, never the service's own outages.
 */
export type InfoAttemptFailed = DomainEvent<
  'InfoAttemptFailed',
  { jobId: string; accountId: string; attempt: number; error: string; errorCode: DownloadErrorCode | null; failedAt: string }
>;

/**
 * The submission did not write its job within the grace period, so its
 * reservation is released; written only to a stream that does not exist yet,
 * it keeps the late submission from creating the job afterwards.
 */
export type InfoAbandoned = DomainEvent<'InfoAbandoned', { jobId: string; accountId: string; abandonedAt: string }>;

export type InfoJobEvent = InfoRequested | InfoSucceeded | InfoFailed | InfoAttemptFailed | InfoAbandoned;

export const INFO_JOB_EVENT_TYPES: readonly InfoJobEvent['type'][] = ['InfoRequested', 'InfoSucceeded', 'InfoFailed', 'InfoAttemptFailed', 'InfoAbandoned'];
