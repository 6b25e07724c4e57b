import type { WebhookDeliveryResult } from '../../domain/webhook-delivery/state.js';

/** What operators watch about webhook delivery. */
export interface WebhookMetrics {
  /** `outcome` is `acknowledged` or the failure's error class (`http_status` for non-2xx answers). */
  attemptFinished(outcome: string, durationMs: number | null): void;
  /** How late an attempt started after it was due (the first is due when the job finished). */
  attemptStarted(lateByMs: number): void;
  /** `sinceFinishedMs`: from the job becoming terminal to the delivery's end. */
  deliveryFinished(result: WebhookDeliveryResult, sinceFinishedMs: number): void;
}
