import { createHmac } from 'node:crypto';

/** `v1`: lowercase hex HMAC-SHA256, keyed by the account's API key, over `<t>.<raw body>`. */
export function webhookSignatureV1(rawBody: string | Uint8Array, apiKey: string, unixSeconds: number): string {
  return createHmac('sha256', apiKey).update(`${unixSeconds}.`, 'utf8').update(rawBody).digest('hex');
}

/** The `X-Service-Signature` value: `t=<unix seconds>,v1=<hex>`. */
export function webhookSignatureHeader(rawBody: string | Uint8Array, apiKey: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${webhookSignatureV1(rawBody, apiKey, unixSeconds)}`;
}
