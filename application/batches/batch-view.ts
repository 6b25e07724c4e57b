import type { RequestedBatchState } from '../../domain/batch/state.js';
import type { BatchView } from './batch-read-model.js';

/** The view of a folded batch: a video's title is the listing's, or else the one its job's lookup found. */
export function batchView(
  state: RequestedBatchState,
  listingError: string | null,
  titles: ReadonlyMap<string, string | null>,
): BatchView {
  const { request } = state;
  return {
    batchId: request.batchId,
    accountId: request.accountId,
    status: state.status,
    source: request.source,
    maxVideos: request.maxVideos,
    format: request.format,
    listingUnits: state.listingUnits,
    listingError,
    requestedAt: request.requestedAt,
    finishedAt: state.finishedAt,
    videos: (state.videos ?? []).map((video) => ({
      videoUrl: video.videoUrl,
      title: video.title ?? (video.jobId === null ? null : (titles.get(video.jobId) ?? null)),
      status: video.status,
      jobId: video.jobId,
      refusal: video.refusal,
    })),
  };
}
