import {
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestOptions,
  request as httpRequest,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../application/ports/clock.js';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../application/ports/webhook-sender.js';
import { checkWebhookUrl, isAllowlisted } from '../security/webhook-url-policy.js';
import { AddressRefusedError, type ResolveHost, checkedAddressLookup } from './checked-address-lookup.js';
import { webhookSignatureHeader } from './webhook-signature.js';

export interface HttpWebhookSenderOptions {
  /** WEBHOOK_ALLOW_HOSTS: the only hosts exempt from the public-address rule. */
  allowHosts: readonly string[];
  resolve: ResolveHost;
  clock: Clock;
}

class AttemptTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeoutError';
  }
}

type ErrorClass = Extract<WebhookResponse, { kind: 'error' }>['errorClass'];

/** The attempt's clock: how long it has taken, and its failure as an answer. */
interface AttemptTiming {
  readonly elapsed: () => number;
  readonly fail: (errorClass: ErrorClass, detail: string) => WebhookResponse;
}

/**
 * One POST per attempt over node:http(s), on a fresh connection (no agent
 * pool, so every attempt resolves and checks again). The submit-time URL
 * rules are applied again (they refuse literal non-public IPs), then the
 * addresses a name resolves to, through the checked lookup. node:http never follows
 * redirects, so a 3xx is just an answer and its target is never contacted.
 * The signature is computed at send time, so every attempt carries a fresh `t`.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: HttpWebhookSenderOptions) {}

  send(request: WebhookRequest): Promise<WebhookResponse> {
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    const fail = (errorClass: ErrorClass, detail: string): WebhookResponse => ({
      kind: 'error',
      errorClass,
      detail,
      durationMs: elapsed(),
    });
    // The submit-time rules again; they also judge literal IP hosts, for which no lookup runs.
    const policy = checkWebhookUrl(request.url, { allowHosts: this.options.allowHosts });
    if (!policy.ok) return Promise.resolve(fail('address_refused', policy.reason));
    return this.post(new URL(request.url), request, { elapsed, fail });
  }

  /** The POST itself: its answer's status, or what stopped it (a refused address, the time limit, shutdown). */
  private post(url: URL, request: WebhookRequest, { elapsed, fail }: AttemptTiming): Promise<WebhookResponse> {
    const body = Buffer.from(request.body, 'utf8');
    const exempt = isAllowlisted(url, this.options.allowHosts);
    const options: RequestOptions = {
      method: 'POST',
      agent: false,
      lookup: checkedAddressLookup(this.options.resolve, { requirePublic: !exempt }),
      headers: this.headers(request, body),
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const settle = (response: WebhookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(response);
      };
      let outgoing: ClientRequest;
      try {
        outgoing = send(url, options, (response: IncomingMessage) => {
          settle({ kind: 'response', statusCode: response.statusCode ?? 0, durationMs: elapsed() });
          // The answer's body is not needed; drop the connection rather than wait for it.
          response.on('error', () => {});
          response.destroy();
        });
      } catch (error) {
        settle(fail('other', error instanceof Error ? error.message : String(error)));
        return;
      }
      const timer = setTimeout(() => outgoing.destroy(new AttemptTimeoutError(request.timeoutMs)), request.timeoutMs);
      const onAbort = () => outgoing.destroy(new Error('the attempt was aborted by shutdown'));
      request.signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.on('error', (error: NodeJS.ErrnoException) => settle(fail(classify(error), error.message)));
      outgoing.end(body);
    });
  }

  /** What an attempt says of itself, signed now so that every attempt carries a fresh `t`. */
  private headers(request: WebhookRequest, body: Buffer): OutgoingHttpHeaders {
    const unixSeconds = Math.floor(this.options.clock.now().getTime() / 1000);
    return {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': 'video-download-service-webhooks',
      'X-Service-Event': request.event,
      'X-Service-Job-Id': request.jobId,
      'X-Service-Attempt': String(request.attempt),
      'X-Service-Signature': webhookSignatureHeader(body, request.signingKey, unixSeconds),
    };
  }
}

function classify(error: NodeJS.ErrnoException): ErrorClass {
  if (error instanceof AttemptTimeoutError) return 'timeout';
  if (error instanceof AddressRefusedError) return 'address_refused';
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code.startsWith('EAI_')) return 'dns';
  if (
    /^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code) ||
    code.includes('CERT')
  )
    return 'tls';
  return 'other';
}
