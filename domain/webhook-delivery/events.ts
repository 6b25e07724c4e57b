import type { DomainEvent } from '../decider.js';

/**
 * The `X-Service-Event` of a delivery, `<resource>.<what happened>`: `download.completed`, `download.failed`,
 * `batch.finished`. Each feature names its own; the delivery's rules are the same for all of them.
 */
export type WebhookEventName = `${string}.${string}`;

/**
 * Why an attempt failed, for auditors and metrics: `http_status` (any
 * non-2xx answer, redirects included, with its status code), `timeout` (no
 * answer within the acknowledgement limit), `connection_refused`,
 * `connection_reset`, `dns` (the name did not resolve), `tls`,
 * `address_refused` (an address of the host is not public), `no_signing_key`
 * (the account has no active API key to sign with; nothing was sent),
 * `interrupted` (the worker stopped mid-attempt, so whether the receiver
 * saw it is unknown) and `other`.
 */
export type WebhookErrorClass =
  | 'http_status'
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns'
  | 'tls'
  | 'address_refused'
  | 'no_signing_key'
  | 'interrupted'
  | 'other';

/**
 * A worker claimed attempt `attempt` and is about to send it. Until
 * `deadline` no other worker sends anything for the job; an attempt still
 * without an outcome after it is recorded as interrupted.
 */
export type WebhookAttemptStarted = DomainEvent<
  'WebhookAttemptStarted',
  {
    jobId: string;
    accountId: string;
    attempt: number;
    event: WebhookEventName;
    url: string;
    workerId: string;
    startedAt: string;
    deadline: string;
  }
>;

/** The receiver answered 2xx in time: the delivery is done. */
export type WebhookAttemptSucceeded = DomainEvent<
  'WebhookAttemptSucceeded',
  { jobId: string; accountId: string; attempt: number; statusCode: number; durationMs: number; finishedAt: string }
>;

/** `nextDelayMs`/`nextAttemptAt` are null when no attempt follows (410, or the last attempt). */
export type WebhookAttemptFailed = DomainEvent<
  'WebhookAttemptFailed',
  {
    jobId: string;
    accountId: string;
    attempt: number;
    statusCode: number | null;
    errorClass: WebhookErrorClass;
    detail: string | null;
    /** Null when the attempt was interrupted. */
    durationMs: number | null;
    finishedAt: string;
    nextDelayMs: number | null;
    nextAttemptAt: string | null;
  }
>;

/** The receiver answered 410 Gone: no further attempt. */
export type WebhookDeliveryStopped = DomainEvent<
  'WebhookDeliveryStopped',
  { jobId: string; accountId: string; attempt: number; statusCode: 410; stoppedAt: string }
>;

/** Every attempt failed. */
export type WebhookDeliveryGaveUp = DomainEvent<
  'WebhookDeliveryGaveUp',
  { jobId: string; accountId: string; attempts: number; gaveUpAt: string }
>;

export type WebhookDeliveryOwnEvent =
  | WebhookAttemptStarted
  | WebhookAttemptSucceeded
  | WebhookAttemptFailed
  | WebhookDeliveryStopped
  | WebhookDeliveryGaveUp;

const OWN_EVENT_TYPES: ReadonlySet<string> = new Set<WebhookDeliveryOwnEvent['type']>([
  'WebhookAttemptStarted',
  'WebhookAttemptSucceeded',
  'WebhookAttemptFailed',
  'WebhookDeliveryStopped',
  'WebhookDeliveryGaveUp',
]);

/** Whether an event of a stream that keeps a delivery (a job's, a batch's, a subscription's) is one of the delivery's own. */
export function isWebhookDeliveryOwnEvent(event: { type: string }): event is WebhookDeliveryOwnEvent {
  return OWN_EVENT_TYPES.has(event.type);
}
