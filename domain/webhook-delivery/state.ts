import type { WebhookEventName } from './events.js';

/** The spec's ten attempts over roughly four hours. */
export const MAX_WEBHOOK_ATTEMPTS = 10;

export type WebhookDeliveryResult = 'acknowledged' | 'stopped' | 'gave_up';

/** Folded from the job's stream: the job events it needs and its own. */
export interface WebhookDeliveryState {
  job: { jobId: string; accountId: string; webhookUrl: string | null } | null;
  /** Set once the job is COMPLETED or FAILED. */
  terminal: { event: WebhookEventName; at: string } | null;
  /** Attempts started so far. */
  attempts: number;
  /** The last attempt, while it has no outcome. */
  inFlight: { attempt: number; workerId: string; startedAt: string; deadline: string } | null;
  /** When the next attempt may start; null before the first. */
  nextAttemptAt: string | null;
  finished: WebhookDeliveryResult | null;
}

export const initialWebhookDeliveryState = (): WebhookDeliveryState => ({
  job: null,
  terminal: null,
  attempts: 0,
  inFlight: null,
  nextAttemptAt: null,
  finished: null,
});

/** What a command to the delivery of a finished job with a webhookUrl is decided on. */
export interface DeliveryContext {
  readonly state: WebhookDeliveryState;
  readonly jobId: string;
  readonly accountId: string;
  readonly url: string;
  readonly event: WebhookEventName;
}
