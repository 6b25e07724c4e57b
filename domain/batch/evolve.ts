import type { BatchEvent, BatchListed } from './events.js';
import type { BatchState, BatchVideo, RequestedBatchState } from './state.js';

export function evolveBatch(state: BatchState, event: BatchEvent): BatchState {
  if (event.type === 'BatchRequested') {
    return {
      status: 'pending',
      request: event.data,
      videos: null,
      listingUnits: null,
      listingFailed: false,
      jobVideos: {},
      cancelRequestedAt: null,
      finishes: 0,
      finishedAt: null,
    };
  }
  if (state.status === 'none') return state;
  return evolveRequestedBatch(state, event);
}

function evolveRequestedBatch(state: RequestedBatchState, event: BatchEvent): RequestedBatchState {
  switch (event.type) {
    case 'BatchListed':
      return { ...state, videos: listedVideos(state, event), listingUnits: event.data.listingUnits };
    case 'BatchListingFailed':
      return { ...state, listingFailed: true };
    case 'BatchVideoAdmitted': {
      const { videoUrl, jobId } = event.data;
      const admitted = withVideo(state, videoUrl, { status: 'admitted', jobId, refusal: null });
      return { ...admitted, status: 'running', jobVideos: { ...state.jobVideos, [jobId]: videoUrl } };
    }
    case 'BatchVideoRefused': {
      const { videoUrl, jobId, code, message } = event.data;
      return withVideo(state, videoUrl, { status: 'refused', jobId, refusal: { code, message } });
    }
    case 'BatchVideoSettled':
      return withVideo(state, event.data.videoUrl, { status: event.data.status });
    case 'BatchCancelRequested': {
      const withdrawn = new Set(event.data.withdrawnVideoUrls);
      const videos = state.videos?.map((video) =>
        withdrawn.has(video.videoUrl) ? { ...video, status: 'cancelled' as const } : video,
      );
      return { ...state, videos: videos ?? null, cancelRequestedAt: event.data.requestedAt };
    }
    case 'BatchRetryRequested': {
      const retried = new Set(event.data.videoUrls);
      const videos = state.videos?.map((video) =>
        retried.has(video.videoUrl) ? { ...video, status: 'waiting' as const, refusal: null } : video,
      );
      return { ...state, status: 'running', videos: videos ?? null, finishedAt: null };
    }
    case 'BatchFinished':
      return { ...state, status: event.data.status, finishes: event.data.round, finishedAt: event.data.finishedAt };
    default:
      return state;
  }
}

/** Listed after the account cancelled, every video is withdrawn at once. */
function listedVideos(state: RequestedBatchState, event: BatchListed): BatchVideo[] {
  const status = state.cancelRequestedAt === null ? 'waiting' : 'cancelled';
  return event.data.videos.map(({ videoUrl, title }) => ({ videoUrl, title, status, jobId: null, refusal: null }));
}

function withVideo(state: RequestedBatchState, videoUrl: string, change: Partial<BatchVideo>): RequestedBatchState {
  const videos = state.videos?.map((video) => (video.videoUrl === videoUrl ? { ...video, ...change } : video));
  return { ...state, videos: videos ?? null };
}
