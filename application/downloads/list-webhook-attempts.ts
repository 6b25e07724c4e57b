import type { WebhookErrorClass } from '../../domain/webhook-delivery/events.js';
import type { ReadWebhookDeliveryHistory } from '../audit/webhook-delivery-history.js';

/**
 * Why an attempt failed, as its client reads it. Whether the name did not resolve, resolved to an address the
 * service will not reach, refused or dropped the connection, or failed otherwise before an answer is one
 * `unreachable`: told apart, they would map the service's own network (a split-horizon zone, which internal names
 * exist, which ports answer) for anyone who can submit a URL. The operator's log and the job's stream keep the
 * exact class and its detail.
 */
export const CLIENT_WEBHOOK_ERRORS = ['unreachable', 'timeout', 'tls', 'no_signing_key', 'interrupted'] as const;
export type ClientWebhookError = (typeof CLIENT_WEBHOOK_ERRORS)[number];

const CLIENT_ERROR: Record<Exclude<WebhookErrorClass, 'http_status'>, ClientWebhookError> = {
  dns: 'unreachable',
  address_refused: 'unreachable',
  connection_refused: 'unreachable',
  connection_reset: 'unreachable',
  other: 'unreachable',
  timeout: 'timeout',
  tls: 'tls',
  no_signing_key: 'no_signing_key',
  interrupted: 'interrupted',
};

export interface WebhookAttemptView {
  attempt: number;
  at: string;
  statusCode: number | null;
  /** Why the attempt failed when there was no answer to show; null otherwise. */
  error: ClientWebhookError | null;
  durationMs: number;
  nextAttemptAt: string | null;
}

/**
 * A job's webhook attempts for its owner, read from the job's stream as the
 * audit CLI reads them. Another account's job reads as missing. The
 * attempt's free-text detail and exact class stay with operators: they may
 * name addresses, or tell what the service's network holds.
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
      error: clientError(entry.errorClass),
      durationMs: Math.max(0, Math.round(entry.durationMs ?? 0)),
      nextAttemptAt:
        entry.nextDelayMs === null || entry.finishedAt === null
          ? null
          : new Date(Date.parse(entry.finishedAt) + entry.nextDelayMs).toISOString(),
    }));
  }
}

/** An answer's status speaks for itself; the history's class is a string, as old streams recorded it. */
function clientError(errorClass: string | null): ClientWebhookError | null {
  if (errorClass === null || errorClass === 'http_status') return null;
  return CLIENT_ERROR[errorClass as keyof typeof CLIENT_ERROR] ?? 'unreachable';
}
