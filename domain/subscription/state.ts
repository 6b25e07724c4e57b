import type { MediaFormat } from '../media-format.js';
import type { FoundVideo, SubmissionRefusalCode, SubscriptionCreated } from './events.js';

/** A video found and not yet submitted; one deferred waits for the next completed check. */
export interface QueuedVideo extends FoundVideo {
  waitsForCheck: boolean;
}

export interface SubscriptionSettings {
  format: MediaFormat;
  language: string | null;
  checkEveryMinutes: number;
}

export interface LastCheck {
  checkId: string;
  finishedAt: string;
  /** Videos it found to take; null when it failed. */
  found: number | null;
  failure: string | null;
}

export interface LiveSubscriptionState {
  status: 'active' | 'paused' | 'deleted';
  created: SubscriptionCreated['data'];
  settings: SubscriptionSettings;
  pause: { pausedBy: 'user' | 'subscription'; reason: string | null; pausedAt: string } | null;
  /** When the next check is due; null while none is scheduled (paused, deleted, or a check under way). */
  nextCheckAt: string | null;
  checkInProgress: { checkId: string; startedAt: string } | null;
  lastCheck: LastCheck | null;
  /** Whether a check has completed: the first one sets what `start: new` leaves out. */
  firstCheckDone: boolean;
  /** Every video id a listing of the subscription ever showed: none of them is taken again. */
  seen: Readonly<Record<string, true>>;
  queue: readonly QueuedVideo[];
  /** Each video the subscription submitted, by id, with its job. */
  /** `order`: the submission's place among all of this subscription's, which a view lists them by. */
  submitted: Readonly<Record<string, FoundVideo & { jobId: string; order: number }>>;
  /** Submissions made so far, refused or deferred ones included. */
  submissions: number;
  refused: Readonly<Record<string, SubmissionRefusalCode>>;
}

export type SubscriptionState = { status: 'none' } | LiveSubscriptionState;

export const initialSubscriptionState = (): SubscriptionState => ({ status: 'none' });

/** What a command to an existing subscription is decided on. */
export interface SubscriptionContext {
  readonly state: LiveSubscriptionState;
  readonly subscriptionId: string;
  readonly accountId: string;
}
