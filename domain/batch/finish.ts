import type { BatchCounts, BatchEvent, BatchOutcome } from './events.js';
import { evolveBatch } from './evolve.js';
import { type BatchContext, type BatchVideo, type RequestedBatchState, isTerminalVideo } from './state.js';

function countVideos(videos: readonly BatchVideo[]): BatchCounts {
  const counts: BatchCounts = { completed: 0, failed: 0, cancelled: 0, refused: 0 };
  for (const video of videos) if (video.status !== 'waiting' && video.status !== 'admitted') counts[video.status] += 1;
  return counts;
}

/**
 * A cancelled batch is `cancelled` however its jobs ended; otherwise
 * `completed` when every video completed (a listing that found none too),
 * `failed` when none did, and `partial` in between.
 */
function batchOutcome(state: RequestedBatchState, counts: BatchCounts): BatchOutcome {
  if (state.cancelRequestedAt !== null) return 'cancelled';
  if (state.listingFailed) return 'failed';
  const total = counts.completed + counts.failed + counts.cancelled + counts.refused;
  if (counts.completed === total) return 'completed';
  return counts.completed === 0 ? 'failed' : 'partial';
}

/**
 * `events`, followed by the batch's finish when they leave every video of
 * the batch terminal (or its listing failed). Called only with events that
 * end an open video or the listing, of which a finished batch has none until
 * a retry reopens it, so the batch finishes once per round.
 */
export function withFinish(context: BatchContext, events: BatchEvent[], now: string): BatchEvent[] {
  const after = events.reduce(evolveBatch, context.state) as RequestedBatchState;
  if (!isDone(after)) return events;
  const { batchId, accountId } = context;
  const counts = countVideos(after.videos ?? []);
  const finished: BatchEvent = {
    type: 'BatchFinished',
    data: {
      batchId,
      accountId,
      status: batchOutcome(after, counts),
      counts,
      round: after.finishes + 1,
      finishedAt: now,
    },
  };
  if (after.cancelRequestedAt === null) return [...events, finished];
  return [...events, { type: 'BatchCancelled', data: { batchId, accountId, cancelledAt: now } }, finished];
}

function isDone(state: RequestedBatchState): boolean {
  if (state.listingFailed) return true;
  return state.videos?.every(isTerminalVideo) === true;
}
