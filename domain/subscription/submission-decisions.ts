import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type { RefuseSubmission, SubmitVideos } from './commands.js';
import type { SubscriptionEvent } from './events.js';
import type { SubscriptionContext } from './state.js';

/**
 * The videos found, in order, one per free pending slot and fresh job id;
 * those beyond the free slots wait for the next check. A video leaves the
 * queue when submitted, so it is never submitted twice; a paused or deleted
 * subscription submits nothing.
 */
export function submitVideos(data: SubmitVideos['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  if (state.status !== 'active') return [];
  const { freeSlots, jobIds, now } = data;
  const ready = state.queue.filter((video) => !video.waitsForCheck);
  const slots = Math.max(0, Math.floor(freeSlots));
  const count = Math.min(slots, jobIds.length, ready.length);
  const ids = jobIds.slice(0, count);
  const taken = new Set(Object.values(state.submitted).map((video) => video.jobId));
  const reused = ids.find((jobId, index) => taken.has(jobId) || ids.indexOf(jobId) !== index);
  if (reused !== undefined)
    throw new InvalidTransitionError(`Job id ${reused} is already taken in subscription ${subscriptionId}`);
  const submitted = ready.slice(0, count).map(
    ({ videoId, videoUrl, title }, index): SubscriptionEvent => ({
      type: 'SubscriptionVideoSubmitted',
      data: { subscriptionId, accountId, videoId, videoUrl, title, jobId: ids[index], submittedAt: now },
    }),
  );
  const deferred = ready.slice(slots).map(
    ({ videoId }): SubscriptionEvent => ({
      type: 'SubscriptionVideoDeferred',
      data: { subscriptionId, accountId, videoId, jobId: null, deferredAt: now },
    }),
  );
  return [...submitted, ...deferred];
}

/**
 * The job submitted for the video was not written. At the pending limit the
 * video waits for the next check; out of credit (or with the account
 * suspended or closed) it waits too, and the subscription pauses itself with
 * the reason; any other refusal is for good.
 * A refusal of a job that is no longer the video's (repeated) changes nothing.
 */
export function refuseSubmission(data: RefuseSubmission['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  const { videoId, jobId, code, message, now } = data;
  if (!Object.hasOwn(state.seen, videoId))
    throw new NotFoundError(`Subscription ${subscriptionId} has no video ${videoId}`);
  if (state.submitted[videoId]?.jobId !== jobId) return [];
  if (code !== 'PENDING_LIMIT' && code !== 'CREDIT_LIMIT_REACHED' && code !== 'ACCOUNT_REFUSED')
    return [
      {
        type: 'SubscriptionVideoRefused',
        data: { subscriptionId, accountId, videoId, jobId, code, message, refusedAt: now },
      },
    ];
  const deferred: SubscriptionEvent = {
    type: 'SubscriptionVideoDeferred',
    data: { subscriptionId, accountId, videoId, jobId, deferredAt: now },
  };
  if (code === 'PENDING_LIMIT' || state.status !== 'active') return [deferred];
  return [
    deferred,
    {
      type: 'SubscriptionPaused',
      data: { subscriptionId, accountId, pausedBy: 'subscription', reason: message, pausedAt: now },
    },
  ];
}
