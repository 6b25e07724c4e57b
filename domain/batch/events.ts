import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { BatchRefusalCode } from './refusal.js';
import type { BatchSource, ListedVideo } from './source.js';

/** How a job of the batch ended, as the batch records it. */
export type SettledJobStatus = 'completed' | 'failed' | 'cancelled';

/** How a whole batch ended. */
export type BatchOutcome = 'completed' | 'partial' | 'failed' | 'cancelled';

/** The videos of a finished batch by how each ended. */
export interface BatchCounts {
  completed: number;
  failed: number;
  cancelled: number;
  refused: number;
}

/** The account's request; `format`, `language` and `webhookUrl` apply to each video's job as in a single submission. */
export type BatchRequested = DomainEvent<
  'BatchRequested',
  {
    batchId: string;
    accountId: string;
    source: BatchSource;
    /** The most videos the listing takes, in its order (a channel's newest first). */
    maxVideos: number;
    format: MediaFormat;
    language: string | null;
    webhookUrl: string | null;
    /** Where `batch.finished` goes. */
    batchWebhookUrl: string | null;
    requestedAt: string;
  }
>;

/**
 * The videos of the batch, in order, each once. `listingUnits` is what the
 * listing was charged (the charge itself is on the account's stream), so the
 * batch explains it to auditors; 0 for URLs given in the request.
 */
export type BatchListed = DomainEvent<
  'BatchListed',
  { batchId: string; accountId: string; videos: ListedVideo[]; listingUnits: number; listedAt: string }
>;

/** The playlist or channel could not be listed: the batch has no videos and ends failed. */
export type BatchListingFailed = DomainEvent<
  'BatchListingFailed',
  { batchId: string; accountId: string; errorCode: DownloadErrorCode | null; reason: string; failedAt: string }
>;

/** A pending slot was free: the video gets its job, under this id. */
export type BatchVideoAdmitted = DomainEvent<
  'BatchVideoAdmitted',
  { batchId: string; accountId: string; videoUrl: string; jobId: string; admittedAt: string }
>;

/** The video got no job; `jobId` is the one its refused submission would have had, null when none was tried. */
export type BatchVideoRefused = DomainEvent<
  'BatchVideoRefused',
  {
    batchId: string;
    accountId: string;
    videoUrl: string;
    jobId: string | null;
    code: BatchRefusalCode;
    message: string;
    refusedAt: string;
  }
>;

/** A job of the batch is terminal. */
export type BatchVideoSettled = DomainEvent<
  'BatchVideoSettled',
  {
    batchId: string;
    accountId: string;
    videoUrl: string;
    jobId: string;
    status: SettledJobStatus;
    settledAt: string;
  }
>;

/**
 * The account cancelled the batch: nothing more is admitted, the videos
 * still waiting end cancelled, and the jobs still running are to be stopped.
 */
export type BatchCancelRequested = DomainEvent<
  'BatchCancelRequested',
  {
    batchId: string;
    accountId: string;
    withdrawnVideoUrls: string[];
    runningJobIds: string[];
    requestedAt: string;
  }
>;

/** The cancellation took effect: no job of the batch runs any more. */
export type BatchCancelled = DomainEvent<'BatchCancelled', { batchId: string; accountId: string; cancelledAt: string }>;

/** The account asked for its failed videos again: each waits for a new job. */
export type BatchRetryRequested = DomainEvent<
  'BatchRetryRequested',
  { batchId: string; accountId: string; videoUrls: string[]; requestedAt: string }
>;

/**
 * Every video of the batch is terminal. A retry reopens a finished batch,
 * which then finishes again: `round` numbers the finishes from 1, so each has
 * its own `batch.finished`.
 */
export type BatchFinished = DomainEvent<
  'BatchFinished',
  {
    batchId: string;
    accountId: string;
    status: BatchOutcome;
    counts: BatchCounts;
    round: number;
    finishedAt: string;
  }
>;

export type BatchEvent =
  | BatchRequested
  | BatchListed
  | BatchListingFailed
  | BatchVideoAdmitted
  | BatchVideoRefused
  | BatchVideoSettled
  | BatchCancelRequested
  | BatchCancelled
  | BatchRetryRequested
  | BatchFinished;

export const BATCH_EVENT_TYPES: readonly BatchEvent['type'][] = [
  'BatchRequested',
  'BatchListed',
  'BatchListingFailed',
  'BatchVideoAdmitted',
  'BatchVideoRefused',
  'BatchVideoSettled',
  'BatchCancelRequested',
  'BatchCancelled',
  'BatchRetryRequested',
  'BatchFinished',
];
