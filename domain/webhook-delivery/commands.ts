import type { WebhookErrorClass } from './events.js';

/** Claims the next attempt; `deadline` bounds how long the claim holds. */
export type StartWebhookAttempt = {
  type: 'StartWebhookAttempt';
  data: { jobId: string; attempt: number; workerId: string; now: string; deadline: string };
};

export type WebhookAttemptResult =
  | { kind: 'acknowledged'; statusCode: number }
  | { kind: 'failed'; statusCode: number | null; errorClass: WebhookErrorClass; detail: string | null };

/** `retryDelaysMs[n - 1]` is the wait after a failed attempt n (the configured schedule). */
export type RecordWebhookAttemptOutcome = {
  type: 'RecordWebhookAttemptOutcome';
  data: {
    jobId: string;
    attempt: number;
    result: WebhookAttemptResult;
    durationMs: number;
    now: string;
    retryDelaysMs: readonly number[];
  };
};

/** Records an attempt whose claim ran out without an outcome (its worker died) as failed. */
export type AbandonWebhookAttempt = {
  type: 'AbandonWebhookAttempt';
  data: { jobId: string; attempt: number; now: string; retryDelaysMs: readonly number[] };
};

export type WebhookDeliveryCommand = StartWebhookAttempt | RecordWebhookAttemptOutcome | AbandonWebhookAttempt;
