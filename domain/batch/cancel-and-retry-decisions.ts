import { InvalidTransitionError } from '../errors.js';
import type { CancelBatch, RetryBatch } from './commands.js';
import type { BatchEvent } from './events.js';
import { withFinish } from './finish.js';
import { isRetryableRefusal } from './refusal.js';
import type { BatchContext, BatchVideo } from './state.js';

/**
 * Nothing more is admitted and the waiting videos are withdrawn; the batch
 * finishes cancelled once its running jobs have ended (at once if none
 * runs). Cancelling a finished batch, or again, changes nothing.
 */
export function cancelBatch({ now }: CancelBatch['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  if (state.finishedAt !== null || state.cancelRequestedAt !== null) return [];
  const videos = state.videos ?? [];
  const withdrawnVideoUrls = videos.filter((video) => video.status === 'waiting').map((video) => video.videoUrl);
  const runningJobIds = videos.flatMap((video) =>
    video.status === 'admitted' && video.jobId !== null ? [video.jobId] : [],
  );
  return withFinish(
    context,
    [
      {
        type: 'BatchCancelRequested',
        data: { batchId, accountId, withdrawnVideoUrls, runningJobIds, requestedAt: now },
      },
    ],
    now,
  );
}

/**
 * The videos whose jobs failed, and those refused because the credit ran
 * out, wait again for new jobs; a finished batch reopens and will finish
 * again. A cancelled batch stays cancelled.
 */
export function retryBatch({ now }: RetryBatch['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  if (state.cancelRequestedAt !== null)
    throw new InvalidTransitionError(`Batch ${batchId} was cancelled; its videos cannot be retried`);
  const videoUrls = (state.videos ?? []).filter(isRetryable).map((video) => video.videoUrl);
  if (videoUrls.length === 0) throw new InvalidTransitionError(`Batch ${batchId} has no failed videos to retry`);
  return [{ type: 'BatchRetryRequested', data: { batchId, accountId, videoUrls, requestedAt: now } }];
}

function isRetryable(video: BatchVideo): boolean {
  return video.status === 'failed' || (video.refusal !== null && isRetryableRefusal(video.refusal));
}
