import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { SubscriptionSource, SubscriptionStart } from './settings.js';

/** A video a check found that the subscription had not seen. */
export interface FoundVideo {
  videoId: string;
  videoUrl: string;
  title: string | null;
}

/** Why the subscription's submission of a video was refused: the last two put the video back to wait. */
/** `ACCOUNT_REFUSED`: the account is suspended or closed. */
export type SubmissionRefusalCode =
  | 'RULE_VIOLATION'
  | DownloadErrorCode
  | 'PENDING_LIMIT'
  | 'CREDIT_LIMIT_REACHED'
  | 'ACCOUNT_REFUSED';

type Of<Data> = { subscriptionId: string; accountId: string } & Data;

/** `format`, `language` and `webhookUrl` apply to each job the subscription submits, as in a single submission. */
export type SubscriptionCreated = DomainEvent<
  'SubscriptionCreated',
  Of<{
    source: SubscriptionSource;
    format: MediaFormat;
    language: string | null;
    webhookUrl: string | null;
    checkEveryMinutes: number;
    start: SubscriptionStart;
    createdAt: string;
  }>
>;

/** The next check is due at `checkAt`. */
export type SubscriptionCheckScheduled = DomainEvent<
  'SubscriptionCheckScheduled',
  Of<{ checkAt: string; scheduledAt: string }>
>;

export type SubscriptionCheckStarted = DomainEvent<
  'SubscriptionCheckStarted',
  Of<{ checkId: string; startedAt: string }>
>;

/**
 * The check listed the source. `seenVideoIds`: the videos it showed for the
 * first time, recorded so that no later check takes them again; `found`: those
 * of them the subscription takes (none on a first check that starts `new`).
 * `listingUnits` is what the listing was charged on the account's stream.
 */
export type SubscriptionCheckCompleted = DomainEvent<
  'SubscriptionCheckCompleted',
  Of<{ checkId: string; seenVideoIds: string[]; found: FoundVideo[]; listingUnits: number; completedAt: string }>
>;

export type SubscriptionCheckFailed = DomainEvent<
  'SubscriptionCheckFailed',
  Of<{ checkId: string; errorCode: DownloadErrorCode | null; reason: string; failedAt: string }>
>;

/** The video's job, under this id: the subscription's only one for the video. */
export type SubscriptionVideoSubmitted = DomainEvent<
  'SubscriptionVideoSubmitted',
  Of<FoundVideo & { jobId: string; submittedAt: string }>
>;

/**
 * The account was at its pending limit (or out of credit): the video waits
 * for the next check. `jobId`: the submission refused, null when none was tried.
 */
export type SubscriptionVideoDeferred = DomainEvent<
  'SubscriptionVideoDeferred',
  Of<{ videoId: string; jobId: string | null; deferredAt: string }>
>;

/** The video cannot be downloaded for good: the subscription does not try it again. */
export type SubscriptionVideoRefused = DomainEvent<
  'SubscriptionVideoRefused',
  Of<{ videoId: string; jobId: string; code: SubmissionRefusalCode; message: string; refusedAt: string }>
>;

/** Paused by the account's user, or by the subscription itself (`reason` says why: its credit ran out). */
export type SubscriptionPaused = DomainEvent<
  'SubscriptionPaused',
  Of<{ pausedBy: 'user' | 'subscription'; reason: string | null; pausedAt: string }>
>;

export type SubscriptionResumed = DomainEvent<'SubscriptionResumed', Of<{ resumedAt: string }>>;

export type SubscriptionIntervalChanged = DomainEvent<
  'SubscriptionIntervalChanged',
  Of<{ checkEveryMinutes: number; changedAt: string }>
>;

/** Applies to the jobs submitted from now on. */
export type SubscriptionFormatChanged = DomainEvent<
  'SubscriptionFormatChanged',
  Of<{ format: MediaFormat; language: string | null; changedAt: string }>
>;

export type SubscriptionDeleted = DomainEvent<'SubscriptionDeleted', Of<{ deletedAt: string }>>;

export type SubscriptionEvent =
  | SubscriptionCreated
  | SubscriptionCheckScheduled
  | SubscriptionCheckStarted
  | SubscriptionCheckCompleted
  | SubscriptionCheckFailed
  | SubscriptionVideoSubmitted
  | SubscriptionVideoDeferred
  | SubscriptionVideoRefused
  | SubscriptionPaused
  | SubscriptionResumed
  | SubscriptionIntervalChanged
  | SubscriptionFormatChanged
  | SubscriptionDeleted;

export const SUBSCRIPTION_EVENT_TYPES: readonly SubscriptionEvent['type'][] = [
  'SubscriptionCreated',
  'SubscriptionCheckScheduled',
  'SubscriptionCheckStarted',
  'SubscriptionCheckCompleted',
  'SubscriptionCheckFailed',
  'SubscriptionVideoSubmitted',
  'SubscriptionVideoDeferred',
  'SubscriptionVideoRefused',
  'SubscriptionPaused',
  'SubscriptionResumed',
  'SubscriptionIntervalChanged',
  'SubscriptionFormatChanged',
  'SubscriptionDeleted',
];
