import type { BatchOutcome, BatchRequested } from './events.js';
import type { BatchRefusal } from './refusal.js';

/**
 * A video of the batch: `waiting` for a pending slot, `admitted` while its job
 * runs, and then how it ended. `cancelled` covers a job stopped by the
 * batch's cancellation and a video withdrawn before it had a job.
 */
export type BatchVideoStatus = 'waiting' | 'admitted' | 'completed' | 'failed' | 'cancelled' | 'refused';

export interface BatchVideo {
  videoUrl: string;
  title: string | null;
  status: BatchVideoStatus;
  /** Its latest job; a retry gives it a new one. */
  jobId: string | null;
  refusal: BatchRefusal | null;
}

/** `pending` until its first video is admitted, `running` until it finishes (or again after a retry). */
export type BatchStatus = 'pending' | 'running' | BatchOutcome;

export interface RequestedBatchState {
  status: BatchStatus;
  request: BatchRequested['data'];
  /** In listing order; null until the listing is recorded. */
  videos: readonly BatchVideo[] | null;
  listingUnits: number | null;
  listingFailed: boolean;
  /** Every job the batch ever admitted, by id, to its video's URL: a retried video's old job stays known. */
  jobVideos: Readonly<Record<string, string>>;
  cancelRequestedAt: string | null;
  /** How many times the batch finished (a retry reopens it). */
  finishes: number;
  finishedAt: string | null;
}

export type BatchState = { status: 'none' } | RequestedBatchState;

export const initialBatchState = (): BatchState => ({ status: 'none' });

/** Terminal video statuses: nothing more happens to the video unless the batch is retried. */
export function isTerminalVideo(video: BatchVideo): boolean {
  return video.status !== 'waiting' && video.status !== 'admitted';
}

/** What a command to a requested batch is decided on. */
export interface BatchContext {
  readonly state: RequestedBatchState;
  readonly batchId: string;
  readonly accountId: string;
}
