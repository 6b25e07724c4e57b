import type { BatchStatus, BatchVideoStatus } from '../../domain/batch/state.js';
import type { BatchSource } from '../../domain/batch/source.js';
import type { MediaFormat } from '../../domain/media-format.js';

/** A video of a batch as the account sees it: its job, once it has one, or why it got none. */
export interface BatchVideoView {
  videoUrl: string;
  title: string | null;
  status: BatchVideoStatus;
  jobId: string | null;
  refusal: { code: string; message: string } | null;
}

export interface BatchView {
  batchId: string;
  accountId: string;
  status: BatchStatus;
  source: BatchSource;
  maxVideos: number;
  format: MediaFormat;
  /** Units of `channel_list` the listing was charged; null until listed. */
  listingUnits: number | null;
  listingError: string | null;
  requestedAt: string;
  finishedAt: string | null;
  /** In listing order. */
  videos: BatchVideoView[];
}

/** The batches as the read model has folded them. */
export interface BatchReadModel {
  get(batchId: string): Promise<BatchView | null>;
}
