import type { Context, Next } from 'koa';
import type { CheckRequestRate, RateDecision } from '../../../application/rate-limits/check-request-rate.js';
import { HttpError } from '../http-error.js';

/**
 * The spec: `GET /me` has no call limit. Judged on the path below the API
 * prefix (set by the app, whatever prefix was used), in any letter case and
 * with the trailing slash the router accepts; `/download/me` is counted.
 */
const UNLIMITED_API_PATH = /^\/me\/?$/i;
/** Retry-After while the shared count cannot answer: a database blip or failover takes a few seconds. */
const UNCOUNTED_RETRY_AFTER_SECONDS = 2;

/**
 * After authentication: counts the request against its key and account
 * (see CheckRequestRate) and answers 429 with `Retry-After` when either is
 * spent, or 503 with `Retry-After` when the count cannot be taken in time.
 * Every counted response carries the RateLimit-* headers of the tightest
 * bucket (IETF draft "RateLimit header fields for HTTP").
 */
export function requestRateLimit(check: CheckRequestRate) {
  return async function requestRateLimitMiddleware(ctx: Context, next: Next): Promise<void> {
    if (typeof ctx.state.apiPath === 'string' && UNLIMITED_API_PATH.test(ctx.state.apiPath)) return next();
    const counted = check.execute({
      accountId: ctx.state.accountId as string,
      keyId: ctx.state.keyId as string,
      planId: (ctx.state.planId as string | null | undefined) ?? null,
    });
    const decision = !(counted instanceof Promise)
      ? counted
      : await counted.catch((error: unknown) => {
          // The shared count fails within its own timeout: a passing outage the client may retry, not a fault of its request.
          throw new HttpError(
            503,
            `Requests cannot be counted against the rate limits just now; retry after ${UNCOUNTED_RETRY_AFTER_SECONDS} s`,
            undefined,
            { 'Retry-After': String(UNCOUNTED_RETRY_AFTER_SECONDS) },
            { cause: error },
          );
        });
    if (decision === null) return next();
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.msBeforeReset / 1000));
      const who = decision.scope === 'key' ? 'this API key' : 'this account';
      throw new HttpError(
        429,
        `Rate limit exceeded: at most ${decision.limit} requests per second for ${who}; retry after ${retryAfter} s`,
        undefined,
        {
          ...headers,
          'Retry-After': String(retryAfter),
        },
      );
    }
    ctx.set(headers);
    return next();
  };
}

function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(decision.msBeforeReset / 1000))),
    'RateLimit-Policy': `${decision.limit};w=1`,
  };
}
