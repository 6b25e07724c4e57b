import type { RequestedBatchState } from '../../domain/batch/state.js';
import type { BatchCommandHandler } from './batch-commands.js';
import { batchView } from './batch-view.js';

/** The `batch.finished` body: the batch as it finished, its videos counted by status, and their jobs. */
export function batchFinishedBody(batches: BatchCommandHandler): (batchId: string) => Promise<unknown> {
  return async (batchId) => {
    const { state } = await batches.load(batchId);
    const batch = state as RequestedBatchState;
    const view = batchView(batch, null, new Map());
    const counts: Record<string, number> = {};
    for (const video of view.videos) counts[video.status] = (counts[video.status] ?? 0) + 1;
    return {
      event: 'batch.finished',
      batchId: view.batchId,
      status: view.status,
      round: batch.finishes,
      counts,
      finishedAt: view.finishedAt,
      jobs: view.videos.map(({ videoUrl, status, jobId, refusal }) => ({ videoUrl, status, jobId, refusal })),
    };
  };
}
