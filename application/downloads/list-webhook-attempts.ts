import type { ReadWebhookDeliveryHistory } from '../audit/webhook-delivery-history.js';

export interface WebhookAttemptView {
  attempt: number;
  at: string;
  statusCode: number | null;
  /** The failure's class when there was no answer to show (`timeout`, `connection_refused`, …); null otherwise. */
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
}

/**
 * A job's webhook attempts for its owner, read from the job's stream as the
 * audit CLI reads them. Another account's job reads as missing. The
 * attempt's free-text detail stays with operators: it may name addresses.
 */
export class ListWebhookAttempts {
  constructor(private readonly history: ReadWebhookDeliveryHistory) {}

  async execute(accountId: string, jobId: string): Promise<WebhookAttemptView[] | null> {
    const history = await this.history.execute(jobId);
    if (history === null || history.accountId !== accountId) return null;
    return history.attempts.map((entry) => ({
      attempt: entry.attempt,
      at: entry.startedAt,
      statusCode: entry.statusCode,
      error: entry.errorClass === null || entry.errorClass === 'http_status' ? null : entry.errorClass,
      durationMs: Math.max(0, Math.round(entry.durationMs ?? 0)),
      nextAttemptAt:
        entry.nextDelayMs === null || entry.finishedAt === null
          ? null
          : new Date(Date.parse(entry.finishedAt) + entry.nextDelayMs).toISOString(),
    }));
  }
}
