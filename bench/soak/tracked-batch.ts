import type { ReceiverKind } from './webhook-receivers.js';

/** A batch's video as `GET /download-batch/{id}` last showed it. */
export interface SeenBatchVideo {
  videoUrl: string;
  status: string;
  jobId: string | null;
  refusal: { code: string; message: string } | null;
}

/** A `POST /download-batch` of a list of URLs the service accepted, and what the client saw of it since. */
export interface TrackedBatch {
  batchId: string;
  accountId: string;
  key: string;
  /** As submitted, each with what its fixture video makes of the batch's format. */
  videos: Array<{ url: string; expected: 'success' | 'failure' }>;
  /** The receiver of its `batch.finished`, if it asked for one. */
  webhook: ReceiverKind | null;
  submittedAt: number;
  status: string | null;
  seen: SeenBatchVideo[];
}

export const TERMINAL_BATCH_STATUSES: readonly string[] = ['completed', 'partial', 'failed', 'cancelled'];

export function batchIsTerminal(batch: TrackedBatch): boolean {
  return batch.status !== null && TERMINAL_BATCH_STATUSES.includes(batch.status);
}
