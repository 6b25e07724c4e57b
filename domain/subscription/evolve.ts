import type { SubscriptionEvent, SubscriptionVideoDeferred } from './events.js';
import type { LiveSubscriptionState, SubscriptionState } from './state.js';

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  if (event.type === 'SubscriptionCreated') {
    const { format, language, checkEveryMinutes } = event.data;
    return {
      status: 'active',
      created: event.data,
      settings: { format, language, checkEveryMinutes },
      pause: null,
      nextCheckAt: null,
      checkInProgress: null,
      lastCheck: null,
      firstCheckDone: false,
      seen: {},
      queue: [],
      submitted: {},
      submissions: 0,
      refused: {},
    };
  }
  if (state.status === 'none') return state;
  return evolveLiveSubscription(state, event) ?? evolveVideos(state, event) ?? state;
}

/** The subscription's settings, status and checks; undefined for the events of its videos. */
function evolveLiveSubscription(
  state: LiveSubscriptionState,
  event: SubscriptionEvent,
): LiveSubscriptionState | undefined {
  switch (event.type) {
    case 'SubscriptionCheckScheduled':
      return { ...state, nextCheckAt: event.data.checkAt };
    case 'SubscriptionCheckStarted':
      return {
        ...state,
        nextCheckAt: null,
        checkInProgress: { checkId: event.data.checkId, startedAt: event.data.startedAt },
      };
    case 'SubscriptionCheckFailed': {
      const { checkId, reason, failedAt } = event.data;
      const lastCheck = { checkId, finishedAt: failedAt, found: null, failure: reason };
      return { ...state, checkInProgress: null, nextCheckAt: null, lastCheck };
    }
    case 'SubscriptionPaused': {
      const { pausedBy, reason, pausedAt } = event.data;
      return { ...state, status: 'paused', pause: { pausedBy, reason, pausedAt }, nextCheckAt: null };
    }
    case 'SubscriptionResumed':
      return { ...state, status: 'active', pause: null };
    case 'SubscriptionIntervalChanged':
      return { ...state, settings: { ...state.settings, checkEveryMinutes: event.data.checkEveryMinutes } };
    case 'SubscriptionFormatChanged':
      return { ...state, settings: { ...state.settings, format: event.data.format, language: event.data.language } };
    case 'SubscriptionDeleted':
      return { ...state, status: 'deleted', nextCheckAt: null, checkInProgress: null };
    default:
      return undefined;
  }
}

/** What the subscription saw and did with each video. */
function evolveVideos(state: LiveSubscriptionState, event: SubscriptionEvent): LiveSubscriptionState | undefined {
  switch (event.type) {
    case 'SubscriptionCheckCompleted': {
      const { checkId, seenVideoIds, found, completedAt } = event.data;
      const seen = { ...state.seen, ...Object.fromEntries(seenVideoIds.map((videoId) => [videoId, true as const])) };
      // A completed check is the one deferred videos waited for.
      const queue = [...state.queue, ...found].map((video) => ({ ...video, waitsForCheck: false }));
      const lastCheck = { checkId, finishedAt: completedAt, found: found.length, failure: null };
      return { ...state, seen, queue, checkInProgress: null, nextCheckAt: null, lastCheck, firstCheckDone: true };
    }
    case 'SubscriptionVideoSubmitted': {
      const { videoId, videoUrl, title, jobId } = event.data;
      const queue = state.queue.filter((video) => video.videoId !== videoId);
      const order = state.submissions;
      const submitted = { ...state.submitted, [videoId]: { videoId, videoUrl, title, jobId, order } };
      return { ...state, queue, submitted, submissions: order + 1 };
    }
    case 'SubscriptionVideoDeferred':
      return deferred(state, event);
    case 'SubscriptionVideoRefused': {
      const { [event.data.videoId]: _refused, ...submitted } = state.submitted;
      return { ...state, submitted, refused: { ...state.refused, [event.data.videoId]: event.data.code } };
    }
    default:
      return undefined;
  }
}

/** A video whose submission was refused goes back to the head of the queue, as it was found first. */
function deferred(state: LiveSubscriptionState, event: SubscriptionVideoDeferred): LiveSubscriptionState {
  const { videoId } = event.data;
  const { [videoId]: returned, ...submitted } = state.submitted;
  const queue =
    returned === undefined
      ? state.queue.map((video) => (video.videoId === videoId ? { ...video, waitsForCheck: true } : video))
      : [{ videoId, videoUrl: returned.videoUrl, title: returned.title, waitsForCheck: true }, ...state.queue];
  return { ...state, queue, submitted };
}
