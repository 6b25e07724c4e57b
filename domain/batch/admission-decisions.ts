import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type { AdmitVideos, RefuseVideo } from './commands.js';
import type { BatchEvent } from './events.js';
import { withFinish } from './finish.js';
import type { BatchContext, BatchVideo } from './state.js';

/**
 * The next waiting videos in listing order, one per free slot and fresh job
 * id. A video is admitted only while it waits, so never twice, unless a retry
 * puts it back; a cancelled or finished batch admits nothing.
 */
export function admitVideos(data: AdmitVideos['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  if (state.videos === null || state.finishedAt !== null || state.cancelRequestedAt !== null) return [];
  const { freeSlots, jobIds, now } = data;
  const waiting = state.videos.filter((video) => video.status === 'waiting');
  const count = Math.min(Math.max(0, Math.floor(freeSlots)), jobIds.length, waiting.length);
  const ids = jobIds.slice(0, count);
  const reused = ids.find((jobId, index) => Object.hasOwn(state.jobVideos, jobId) || ids.indexOf(jobId) !== index);
  if (reused !== undefined) throw new InvalidTransitionError(`Job id ${reused} is already taken in batch ${batchId}`);
  return waiting.slice(0, count).map((video, index) => ({
    type: 'BatchVideoAdmitted',
    data: { batchId, accountId, videoUrl: video.videoUrl, jobId: ids[index], admittedAt: now },
  }));
}

/**
 * A waiting or admitted video ends refused (an admitted one's job was never
 * written); a refusal repeated changes nothing. Once the credit is used up,
 * the videos still waiting end refused with the same answer, so the batch
 * finishes instead of waiting for credit that will not come.
 */
export function refuseVideo(data: RefuseVideo['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  const { videoUrl, code, message, now } = data;
  const video = state.videos?.find((candidate) => candidate.videoUrl === videoUrl);
  if (video === undefined) throw new NotFoundError(`Batch ${batchId} has no video ${videoUrl}`);
  if (video.status === 'refused') return [];
  if (video.status !== 'waiting' && video.status !== 'admitted')
    throw new InvalidTransitionError(`Video ${videoUrl} of batch ${batchId} is ${video.status} and cannot be refused`);
  const refused = ({ videoUrl, status, jobId }: BatchVideo): BatchEvent => ({
    type: 'BatchVideoRefused',
    // A waiting video's job id, if any, is its job of an earlier round.
    data: { batchId, accountId, videoUrl, jobId: status === 'admitted' ? jobId : null, code, message, refusedAt: now },
  });
  const rest =
    code === 'CREDIT_LIMIT_REACHED'
      ? (state.videos ?? []).filter((other) => other.status === 'waiting' && other.videoUrl !== videoUrl)
      : [];
  return withFinish(context, [video, ...rest].map(refused), now);
}
