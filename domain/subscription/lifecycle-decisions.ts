import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type {
  ChangeFormat,
  ChangeInterval,
  CreateSubscription,
  DeleteSubscription,
  PauseSubscription,
  RequestCheck,
  ResumeSubscription,
} from './commands.js';
import type { SubscriptionEvent } from './events.js';
import { evolveSubscription } from './evolve.js';
import { nextCheck } from './schedule.js';
import { DEFAULT_CHECK_EVERY_MINUTES, checkInterval, checkStart } from './settings.js';
import type { LiveSubscriptionState, SubscriptionContext, SubscriptionState } from './state.js';

/** The first check is due at once: it sets what `start: new` leaves out, so the sooner it runs the less it misses. */
export function createSubscription(data: CreateSubscription['data'], state: SubscriptionState): SubscriptionEvent[] {
  if (state.status !== 'none') {
    if (state.created.subscriptionId === data.subscriptionId) return [];
    throw new InvalidTransitionError(`Subscription ${data.subscriptionId} already exists`);
  }
  const { now, checkEveryMinutes = DEFAULT_CHECK_EVERY_MINUTES, start = { kind: 'new' }, ...rest } = data;
  checkInterval(checkEveryMinutes);
  checkStart(start);
  const { subscriptionId, accountId } = rest;
  return [
    { type: 'SubscriptionCreated', data: { ...rest, checkEveryMinutes, start, createdAt: now } },
    { type: 'SubscriptionCheckScheduled', data: { subscriptionId, accountId, checkAt: now, scheduledAt: now } },
  ];
}

export function pauseSubscription(
  { now }: PauseSubscription['data'],
  context: SubscriptionContext,
): SubscriptionEvent[] {
  const { subscriptionId, accountId } = context;
  if (existing(context).status === 'paused') return [];
  return [
    { type: 'SubscriptionPaused', data: { subscriptionId, accountId, pausedBy: 'user', reason: null, pausedAt: now } },
  ];
}

/** Resumes the checks on the subscription's own phase: a thousand resumed at once do not all check at once. */
export function resumeSubscription(
  { now }: ResumeSubscription['data'],
  context: SubscriptionContext,
): SubscriptionEvent[] {
  const { subscriptionId, accountId } = context;
  if (existing(context).status === 'active') return [];
  return withNextCheck(
    context,
    [{ type: 'SubscriptionResumed', data: { subscriptionId, accountId, resumedAt: now } }],
    now,
  );
}

export function changeInterval(data: ChangeInterval['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { subscriptionId, accountId } = context;
  const { checkEveryMinutes, now } = data;
  const { settings } = existing(context);
  checkInterval(checkEveryMinutes);
  if (settings.checkEveryMinutes === checkEveryMinutes) return [];
  const changed: SubscriptionEvent = {
    type: 'SubscriptionIntervalChanged',
    data: { subscriptionId, accountId, checkEveryMinutes, changedAt: now },
  };
  return withNextCheck(context, [changed], now);
}

export function changeFormat(data: ChangeFormat['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { subscriptionId, accountId } = context;
  const { format, language, now } = data;
  const { settings } = existing(context);
  if (settings.format === format && settings.language === language) return [];
  return [{ type: 'SubscriptionFormatChanged', data: { subscriptionId, accountId, format, language, changedAt: now } }];
}

/**
 * Brings the next check forward to now. A check under way or already due
 * answers the request as it is; a paused subscription checks nothing.
 */
export function requestCheck({ now }: RequestCheck['data'], context: SubscriptionContext): SubscriptionEvent[] {
  const { subscriptionId, accountId } = context;
  const state = existing(context);
  if (state.status === 'paused')
    throw new InvalidTransitionError(`Subscription ${subscriptionId} is paused: resume it to check it`);
  if (
    state.checkInProgress !== null ||
    (state.nextCheckAt !== null && Date.parse(state.nextCheckAt) <= Date.parse(now))
  )
    return [];
  return [{ type: 'SubscriptionCheckScheduled', data: { subscriptionId, accountId, checkAt: now, scheduledAt: now } }];
}

export function deleteSubscription(
  { now }: DeleteSubscription['data'],
  context: SubscriptionContext,
): SubscriptionEvent[] {
  const { state, subscriptionId, accountId } = context;
  if (state.status === 'deleted') return [];
  return [{ type: 'SubscriptionDeleted', data: { subscriptionId, accountId, deletedAt: now } }];
}

/** A deleted subscription is gone for the account's user. */
function existing({ state, subscriptionId }: SubscriptionContext): LiveSubscriptionState {
  if (state.status === 'deleted') throw new NotFoundError(`Subscription ${subscriptionId} not found`);
  return state;
}

/** `events`, and the next check as they leave the subscription. */
function withNextCheck(context: SubscriptionContext, events: SubscriptionEvent[], now: string): SubscriptionEvent[] {
  const after = events.reduce(evolveSubscription, context.state) as LiveSubscriptionState;
  return [...events, ...nextCheck({ ...context, state: after }, now)];
}
