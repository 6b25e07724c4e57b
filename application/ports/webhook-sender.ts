import type { WebhookErrorClass, WebhookEventName } from '../../domain/webhook-delivery/events.js';

export interface WebhookRequest {
  url: string;
  event: WebhookEventName;
  jobId: string;
  attempt: number;
  /** The exact bytes to send, which the signature covers. */
  body: string;
  /** The account's API key: it keys the signature and is never sent. */
  signingKey: string;
  /** The whole exchange, from resolving the name to the status line. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export type WebhookResponse =
  | { kind: 'response'; statusCode: number; durationMs: number }
  | {
      kind: 'error';
      errorClass: Exclude<WebhookErrorClass, 'http_status' | 'no_signing_key' | 'interrupted'>;
      detail: string;
      durationMs: number;
    };

/**
 * Sends one signed `download.finished` POST (signed at send time) and says
 * how the receiver answered. Redirects are answers, never followed.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
