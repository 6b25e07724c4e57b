import { nextCheckAt } from '../../../domain/subscription/check-schedule.js';
import type { SubscriptionCommand } from '../../../domain/subscription/commands.js';
import type { FoundVideo, SubscriptionEvent } from '../../../domain/subscription/events.js';
import type { SubscriptionStart } from '../../../domain/subscription/settings.js';

/** The events and commands of one subscription, `sub-1` of `acc-1`, as the subscription specs write them. */
export const subscriptionId = 'sub-1';
export const accountId = 'acc-1';
export const t0 = '2026-03-01T00:00:00.000Z';
export const t1 = '2026-03-01T00:00:30.000Z';
export const t2 = '2026-03-01T00:01:00.000Z';
export const later = (minutes: number) => new Date(Date.parse(t0) + minutes * 60_000).toISOString();
const of = { subscriptionId, accountId };

export const upload = (n: number): FoundVideo => ({
  videoId: `v${n}`,
  videoUrl: `https://www.youtube.com/watch?v=v${n}`,
  title: `Upload ${n}`,
});
/** Uploads `from`..`to`, newest first, as a listing shows them. */
export const uploads = (to: number, from = 1) =>
  Array.from({ length: to - from + 1 }, (_, index) => upload(to - index));

const settings = {
  source: { kind: 'channel' as const, url: 'https://www.youtube.com/@someone' },
  format: 'audio' as const,
  language: null,
  webhookUrl: null,
};

export const create = (options: { checkEveryMinutes?: number; start?: SubscriptionStart } = {}) =>
  ({ type: 'CreateSubscription', data: { ...of, ...settings, ...options, now: t0 } }) satisfies SubscriptionCommand;

export const created = (checkEveryMinutes = 60, start: SubscriptionStart = { kind: 'new' }): SubscriptionEvent => ({
  type: 'SubscriptionCreated',
  data: { ...of, ...settings, checkEveryMinutes, start, createdAt: t0 },
});

export const scheduled = (checkAt: string, scheduledAt = checkAt): SubscriptionEvent => ({
  type: 'SubscriptionCheckScheduled',
  data: { ...of, checkAt, scheduledAt },
});
/** The regular check after `after`, on the subscription's phase. */
export const scheduledAfter = (after: string, checkEveryMinutes = 60) =>
  scheduled(nextCheckAt(subscriptionId, checkEveryMinutes, after), after);

export const started = (checkId: string, at = t1): SubscriptionEvent => ({
  type: 'SubscriptionCheckStarted',
  data: { ...of, checkId, startedAt: at },
});
export const startCheck = (checkId: string, now = t1, takeOverAfterMs = 300_000) =>
  ({ type: 'StartCheck', data: { subscriptionId, checkId, takeOverAfterMs, now } }) satisfies SubscriptionCommand;

export const completeCheck = (checkId: string, listed: FoundVideo[], now = t2) =>
  ({
    type: 'CompleteCheck',
    data: { subscriptionId, checkId, listed, listingUnits: Math.ceil(listed.length / 10), now },
  }) satisfies SubscriptionCommand;

export const completed = (
  checkId: string,
  seen: FoundVideo[],
  found: FoundVideo[],
  units = 1,
  at = t2,
): SubscriptionEvent => ({
  type: 'SubscriptionCheckCompleted',
  data: {
    ...of,
    checkId,
    seenVideoIds: seen.map((video) => video.videoId),
    found,
    listingUnits: units,
    completedAt: at,
  },
});

export const submitted = (n: number, jobId = `job-${n}`, at = t2): SubscriptionEvent => ({
  type: 'SubscriptionVideoSubmitted',
  data: { ...of, ...upload(n), jobId, submittedAt: at },
});
export const submit = (freeSlots: number, jobIds: string[], now = t2) =>
  ({ type: 'SubmitVideos', data: { subscriptionId, freeSlots, jobIds, now } }) satisfies SubscriptionCommand;

export const deferred = (n: number, jobId: string | null = null, at = t2): SubscriptionEvent => ({
  type: 'SubscriptionVideoDeferred',
  data: { ...of, videoId: `v${n}`, jobId, deferredAt: at },
});

export const paused = (
  pausedBy: 'user' | 'subscription' = 'user',
  reason: string | null = null,
  at = t2,
): SubscriptionEvent => ({
  type: 'SubscriptionPaused',
  data: { ...of, pausedBy, reason, pausedAt: at },
});

/** Created `new`, its first check done over uploads 1-3: it has seen them and takes none. */
export const watching = (checkEveryMinutes = 60): SubscriptionEvent[] => [
  created(checkEveryMinutes),
  scheduled(t0),
  started('check-1'),
  completed('check-1', uploads(3), [], 1),
  scheduledAfter(t2, checkEveryMinutes),
];
