import { timingSafeEqual } from 'node:crypto';
import { webhookSignatureV1 } from './webhook-signature.js';

export interface VerifyWebhookSignatureOptions {
  /** Signatures older (or further in the future) than this are refused. Default 300, the spec's reference window. */
  toleranceSeconds?: number;
  /** The receiver's time, as a Date or Unix milliseconds. Default: now. */
  now?: Date | number;
}

export type WebhookSignatureRefusal =
  | 'missing_signature'
  | 'malformed_signature'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch';

export type WebhookSignatureVerdict =
  | { ok: true; timestamp: number }
  | { ok: false; reason: WebhookSignatureRefusal; message: string };

/**
 * For receivers of `download.finished`: checks `X-Service-Signature`
 * (`t=<unix seconds>,v1=<hex>`) against the raw request body, before any
 * JSON parsing, with the account's API key. Compares in constant time and
 * refuses a timestamp outside the tolerance window, so a captured request
 * cannot be replayed later.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  apiKey: string,
  options: VerifyWebhookSignatureOptions = {},
): WebhookSignatureVerdict {
  if (signatureHeader === undefined || signatureHeader === null || signatureHeader.trim() === '') {
    return refuse('missing_signature', 'The X-Service-Signature header is missing');
  }
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) return refuse('malformed_signature', 'X-Service-Signature must be t=<unix seconds>,v1=<hex>');
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null)
        return refuse('malformed_signature', 'X-Service-Signature needs exactly one t=<unix seconds>');
      timestamp = Number(value);
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(value)) return refuse('malformed_signature', 'v1 must be 64 lowercase hex digits');
      signatures.push(value);
    }
    // Other schemes are ignored, so a receiver keeps working when one is added.
  }
  if (timestamp === null || signatures.length === 0)
    return refuse('malformed_signature', 'X-Service-Signature must be t=<unix seconds>,v1=<hex>');

  const tolerance = options.toleranceSeconds ?? 300;
  const nowMs =
    options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > tolerance) {
    return refuse('timestamp_outside_tolerance', `The signature's timestamp is more than ${tolerance} s away from now`);
  }
  const expected = Buffer.from(webhookSignatureV1(rawBody, apiKey, timestamp), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature, 'hex')));
  return matches
    ? { ok: true, timestamp }
    : refuse('signature_mismatch', 'The signature does not match the body and key');
}

function refuse(reason: WebhookSignatureRefusal, message: string): WebhookSignatureVerdict {
  return { ok: false, reason, message };
}
