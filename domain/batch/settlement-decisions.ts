import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type { SettleVideo } from './commands.js';
import type { BatchEvent } from './events.js';
import { withFinish } from './finish.js';
import type { BatchContext } from './state.js';

/**
 * Records how a job of the batch ended; the job that ends the last video
 * finishes the batch. Job events arrive at least once, so a settlement
 * repeated, or one of a job a retry has since replaced, changes nothing.
 */
export function settleVideo(data: SettleVideo['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  const { jobId, status, now } = data;
  const videoUrl = Object.hasOwn(state.jobVideos, jobId) ? state.jobVideos[jobId] : undefined;
  if (videoUrl === undefined) throw new NotFoundError(`Batch ${batchId} has no job ${jobId}`);
  const video = state.videos?.find((candidate) => candidate.videoUrl === videoUrl);
  if (video === undefined || video.jobId !== jobId) return [];
  if (video.status === 'refused')
    throw new InvalidTransitionError(`Job ${jobId} of batch ${batchId} was refused and cannot end`);
  if (video.status !== 'admitted') return [];
  return withFinish(
    context,
    [{ type: 'BatchVideoSettled', data: { batchId, accountId, videoUrl, jobId, status, settledAt: now } }],
    now,
  );
}
