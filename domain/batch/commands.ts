import type { DownloadErrorCode } from '../download-error-code.js';
import type { BatchRequested, SettledJobStatus } from './events.js';
import type { BatchRefusal } from './refusal.js';
import type { ListedVideo } from './source.js';

/** A batch of URLs is listed at once: its videos are the URLs, each once. */
export type RequestBatch = {
  type: 'RequestBatch';
  data: Omit<BatchRequested['data'], 'requestedAt'> & { now: string };
};

/** What the listing of the playlist or channel found, newest first, and the units it was charged. */
export type RecordListing = {
  type: 'RecordListing';
  data: { batchId: string; videos: readonly ListedVideo[]; listingUnits: number; now: string };
};

export type FailListing = {
  type: 'FailListing';
  data: { batchId: string; errorCode: DownloadErrorCode | null; reason: string; now: string };
};

/**
 * Admits the next waiting videos, in order, one per free pending slot of the
 * account (`freeSlots`, as the caller counts them: the decider does not look),
 * each under the next of `jobIds` (fresh ids, at least as many as the slots
 * the caller means to fill).
 */
export type AdmitVideos = {
  type: 'AdmitVideos';
  data: { batchId: string; freeSlots: number; jobIds: readonly string[]; now: string };
};

/** The video's submission was refused; a refusal for credit ends every video still waiting the same way. */
export type RefuseVideo = {
  type: 'RefuseVideo';
  data: { batchId: string; videoUrl: string; now: string } & BatchRefusal;
};

/** A job of the batch is terminal. */
export type SettleVideo = {
  type: 'SettleVideo';
  data: { batchId: string; jobId: string; status: SettledJobStatus; now: string };
};

export type CancelBatch = { type: 'CancelBatch'; data: { batchId: string; now: string } };

/** Submits again the videos whose jobs failed, and those refused because the credit ran out. */
export type RetryBatch = { type: 'RetryBatch'; data: { batchId: string; now: string } };

export type BatchCommand =
  | RequestBatch
  | RecordListing
  | FailListing
  | AdmitVideos
  | RefuseVideo
  | SettleVideo
  | CancelBatch
  | RetryBatch;
