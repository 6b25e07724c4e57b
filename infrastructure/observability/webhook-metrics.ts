import { Counter, Histogram, type Registry } from 'prom-client';
import type { WebhookMetrics } from '../../application/ports/webhook-metrics.js';
import type { WebhookDeliveryResult } from '../../domain/webhook-delivery/state.js';

/** Attempts by outcome, their durations, how late they start, and deliveries by result with their lag from the job's end. */
export class PrometheusWebhookMetrics implements WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptDuration: Histogram<'outcome'>;
  private readonly startLateness: Histogram;
  private readonly deliveries: Counter<'result'>;
  private readonly deliveryLag: Histogram<'result'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook attempts by outcome (acknowledged, or the failure class)',
      labelNames: ['outcome'],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time from dialling to the status line (or the failure) of a webhook attempt',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers,
    });
    this.startLateness = new Histogram({
      name: 'webhook_attempt_start_lateness_seconds',
      help: 'How long after it was due a webhook attempt started',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Finished webhook deliveries by result (acknowledged, stopped by 410, gave up)',
      labelNames: ['result'],
      registers,
    });
    this.deliveryLag = new Histogram({
      name: 'webhook_delivery_lag_seconds',
      help: 'Time from a job becoming terminal to the end of its webhook delivery',
      labelNames: ['result'],
      buckets: [0.1, 0.5, 1, 5, 30, 120, 600, 3600, 4 * 3600, 8 * 3600],
      registers,
    });
  }

  attemptFinished(outcome: string, durationMs: number | null): void {
    this.attempts.inc({ outcome });
    if (durationMs !== null) this.attemptDuration.observe({ outcome }, durationMs / 1000);
  }

  attemptStarted(lateByMs: number): void {
    this.startLateness.observe(Math.max(0, lateByMs) / 1000);
  }

  deliveryFinished(result: WebhookDeliveryResult, sinceFinishedMs: number): void {
    this.deliveries.inc({ result });
    if (Number.isFinite(sinceFinishedMs)) this.deliveryLag.observe({ result }, Math.max(0, sinceFinishedMs) / 1000);
  }
}
