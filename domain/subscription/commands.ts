import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { FoundVideo, SubmissionRefusalCode, SubscriptionCreated } from './events.js';
import type { SubscriptionStart } from './settings.js';

/** `checkEveryMinutes` defaults to 60 and `start` to `new`; the first check is due at once. */
export type CreateSubscription = {
  type: 'CreateSubscription';
  data: Omit<SubscriptionCreated['data'], 'createdAt' | 'checkEveryMinutes' | 'start'> & {
    checkEveryMinutes?: number;
    start?: SubscriptionStart;
    now: string;
  };
};

/**
 * Starts the check that is due. A check started and never finished (its
 * worker died, leadership moved) is taken over once `takeOverAfterMs` have
 * passed since it started: the bound the listing itself runs under.
 */
export type StartCheck = {
  type: 'StartCheck';
  data: { subscriptionId: string; checkId: string; takeOverAfterMs: number; now: string };
};

/** What the check's listing showed, newest first, and the units it was charged. */
export type CompleteCheck = {
  type: 'CompleteCheck';
  data: { subscriptionId: string; checkId: string; listed: readonly FoundVideo[]; listingUnits: number; now: string };
};

/** `notBefore`: the earliest the next check may run (the platform's back-off), null for the next regular one. */
export type FailCheck = {
  type: 'FailCheck';
  data: {
    subscriptionId: string;
    checkId: string;
    errorCode: DownloadErrorCode | null;
    reason: string;
    notBefore: string | null;
    now: string;
  };
};

/**
 * Submits the videos found, in order, one per free pending slot of the
 * account (`freeSlots`, as the caller counts them), each under the next of
 * `jobIds`; those beyond the free slots wait for the next check.
 */
export type SubmitVideos = {
  type: 'SubmitVideos';
  data: { subscriptionId: string; freeSlots: number; jobIds: readonly string[]; now: string };
};

/** The job submitted for the video was refused; for credit, the subscription pauses itself. */
export type RefuseSubmission = {
  type: 'RefuseSubmission';
  data: {
    subscriptionId: string;
    videoId: string;
    jobId: string;
    code: SubmissionRefusalCode;
    message: string;
    now: string;
  };
};

export type PauseSubscription = { type: 'PauseSubscription'; data: { subscriptionId: string; now: string } };
export type ResumeSubscription = { type: 'ResumeSubscription'; data: { subscriptionId: string; now: string } };
export type ChangeInterval = {
  type: 'ChangeInterval';
  data: { subscriptionId: string; checkEveryMinutes: number; now: string };
};
export type ChangeFormat = {
  type: 'ChangeFormat';
  data: { subscriptionId: string; format: MediaFormat; language: string | null; now: string };
};
/** The account's user asks for a check now rather than at the next scheduled time. */
export type RequestCheck = { type: 'RequestCheck'; data: { subscriptionId: string; now: string } };
export type DeleteSubscription = { type: 'DeleteSubscription'; data: { subscriptionId: string; now: string } };

export type SubscriptionCommand =
  | CreateSubscription
  | StartCheck
  | CompleteCheck
  | FailCheck
  | SubmitVideos
  | RefuseSubmission
  | PauseSubscription
  | ResumeSubscription
  | ChangeInterval
  | ChangeFormat
  | RequestCheck
  | DeleteSubscription;
