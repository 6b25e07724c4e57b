import { nextOffsetCursor } from '../../http/offset-cursor.js';
import type { BatchView } from '../../../application/batches/batch-read-model.js';

const STATUSES = ['waiting', 'admitted', 'completed', 'failed', 'cancelled', 'refused'] as const;

/** The body of `GET /download-batch/{id}`: the batch, its counts by status, and one page of its videos from `offset`. */
export function batchBody(view: BatchView, offset: number, limit: number) {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<string, number>;
  for (const video of view.videos) counts[video.status] = (counts[video.status] ?? 0) + 1;
  const end = offset + limit;
  return {
    batchId: view.batchId,
    status: view.status,
    source: view.source.kind === 'urls' ? { kind: 'urls' } : { kind: view.source.kind, url: view.source.url },
    format: view.format,
    maxVideos: view.maxVideos,
    listingUnits: view.listingUnits,
    listingError: view.listingError,
    totalVideos: view.videos.length,
    counts,
    requestedAt: view.requestedAt,
    finishedAt: view.finishedAt,
    jobs: view.videos.slice(offset, end),
    nextCursor: nextOffsetCursor(end, view.videos.length),
  };
}
