import type { CompleteCheck, FailCheck, StartCheck } from './commands.js';
import type { FoundVideo, SubscriptionEvent } from './events.js';
import { evolveSubscription } from './evolve.js';
import { nextCheck } from './schedule.js';
import type { LiveSubscriptionState, SubscriptionContext } from './state.js';

/**
 * Starts the check once it is due, on an active subscription only. While a
 * check is under way another does not start, unless the one under way has
 * outlived the bound of its listing: its worker is gone, and its late result
 * will count for nothing.
 */
export function startCheck(data: StartCheck['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  const { checkId, takeOverAfterMs, now } = data;
  if (state.status !== 'active') return [];
  const underWay = state.checkInProgress;
  if (underWay !== null) {
    if (underWay.checkId === checkId || Date.parse(now) - Date.parse(underWay.startedAt) < takeOverAfterMs) return [];
  } else if (state.nextCheckAt === null || Date.parse(now) < Date.parse(state.nextCheckAt)) {
    return [];
  }
  return [{ type: 'SubscriptionCheckStarted', data: { subscriptionId, accountId, checkId, startedAt: now } }];
}

/**
 * Records every video the listing showed for the first time, so that none
 * is taken twice, and takes those the subscription wants: all of them, but
 * on the first check only the `latest:N` newest (none for `new`). A paused
 * subscription keeps them until it resumes; a deleted one, or a check taken
 * over, records nothing.
 */
export function completeCheck(data: CompleteCheck['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  const { checkId, listingUnits, now } = data;
  if (state.status === 'deleted' || state.checkInProgress?.checkId !== checkId) return [];
  const unseen = distinct(data.listed).filter((video) => !Object.hasOwn(state.seen, video.videoId));
  const found = state.firstCheckDone ? unseen : unseen.slice(0, firstTake(state));
  const completed: SubscriptionEvent = {
    type: 'SubscriptionCheckCompleted',
    data: {
      subscriptionId,
      accountId,
      checkId,
      seenVideoIds: unseen.map((video) => video.videoId),
      found,
      listingUnits,
      completedAt: now,
    },
  };
  return [completed, ...nextCheck({ ...context, state: afterCheck(state, completed) }, now)];
}

/** A failed check is retried at the next regular check, or later when the platform asked to back off. */
export function failCheck(data: FailCheck['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  const { checkId, errorCode, reason, notBefore, now } = data;
  if (state.status === 'deleted' || state.checkInProgress?.checkId !== checkId) return [];
  const failed: SubscriptionEvent = {
    type: 'SubscriptionCheckFailed',
    data: { subscriptionId, accountId, checkId, errorCode, reason, failedAt: now },
  };
  return [failed, ...nextCheck({ ...context, state: afterCheck(state, failed) }, now, notBefore)];
}

function firstTake(state: LiveSubscriptionState): number {
  return state.created.start.kind === 'latest' ? state.created.start.count : 0;
}

function afterCheck(state: LiveSubscriptionState, event: SubscriptionEvent): LiveSubscriptionState {
  return evolveSubscription(state, event) as LiveSubscriptionState;
}

/** A listing may show a video twice (a playlist may hold it twice): it counts once, where it first appears. */
function distinct(videos: readonly FoundVideo[]): FoundVideo[] {
  const byId = new Map<string, FoundVideo>();
  for (const { videoId, videoUrl, title } of videos)
    if (!byId.has(videoId)) byId.set(videoId, { videoId, videoUrl, title });
  return [...byId.values()];
}
