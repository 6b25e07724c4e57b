import { InvalidTransitionError, RuleViolationError } from '../errors.js';
import type { FailListing, RecordListing, RequestBatch } from './commands.js';
import type { BatchEvent } from './events.js';
import { withFinish } from './finish.js';
import { type ListedVideo, MAX_BATCH_VIDEOS } from './source.js';
import type { BatchContext, BatchState } from './state.js';

/**
 * A repeated request of the same batch does nothing; another batch under its
 * id is refused. URLs given in the request are the batch's listing at once.
 */
export function requestBatch(data: RequestBatch['data'], state: BatchState): BatchEvent[] {
  if (state.status !== 'none') {
    if (state.request.batchId === data.batchId) return [];
    throw new InvalidTransitionError(`Batch ${data.batchId} already exists`);
  }
  checkRequest(data);
  const { now, ...request } = data;
  const requested: BatchEvent = { type: 'BatchRequested', data: { ...request, requestedAt: now } };
  if (request.source.kind !== 'urls') return [requested];
  const videos = request.source.urls.map((videoUrl) => ({ videoUrl, title: null }));
  const { batchId, accountId } = request;
  return [
    requested,
    { type: 'BatchListed', data: { batchId, accountId, videos: distinct(videos), listingUnits: 0, listedAt: now } },
  ];
}

function checkRequest({ maxVideos, source }: RequestBatch['data']): void {
  if (!Number.isInteger(maxVideos) || maxVideos < 1 || maxVideos > MAX_BATCH_VIDEOS)
    throw new RuleViolationError(`maxVideos must be a whole number from 1 to ${MAX_BATCH_VIDEOS}`);
  if (source.kind === 'urls' && (source.urls.length < 1 || source.urls.length > MAX_BATCH_VIDEOS))
    throw new RuleViolationError(`urls must hold from 1 to ${MAX_BATCH_VIDEOS} video URLs`);
}

/** The listing's videos, each once and at most `maxVideos` of them; a listing recorded again changes nothing. */
export function recordListing(data: RecordListing['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  if (state.videos !== null || state.finishedAt !== null) return [];
  if (state.listingFailed) throw new InvalidTransitionError(`The listing of batch ${batchId} already failed`);
  const { listingUnits, now } = data;
  const videos = distinct(data.videos).slice(0, state.request.maxVideos);
  return withFinish(
    context,
    [{ type: 'BatchListed', data: { batchId, accountId, videos, listingUnits, listedAt: now } }],
    now,
  );
}

/** A batch whose listing failed has no videos: it finishes failed (or cancelled, if the account cancelled it first). */
export function failListing(data: FailListing['data'], context: BatchContext): BatchEvent[] {
  const { state, batchId, accountId } = context;
  if (state.listingFailed || state.finishedAt !== null) return [];
  if (state.videos !== null) throw new InvalidTransitionError(`Batch ${batchId} is already listed`);
  const { errorCode, reason, now } = data;
  return withFinish(
    context,
    [{ type: 'BatchListingFailed', data: { batchId, accountId, errorCode, reason, failedAt: now } }],
    now,
  );
}

/** A playlist may hold a video twice, and a request may name one twice: the batch takes it once, where it first appears. */
function distinct(videos: readonly ListedVideo[]): ListedVideo[] {
  const byUrl = new Map<string, ListedVideo>();
  for (const { videoUrl, title } of videos) if (!byUrl.has(videoUrl)) byUrl.set(videoUrl, { videoUrl, title });
  return [...byUrl.values()];
}
