import type { Context, Next } from 'koa';
import type { Logger } from '../../../application/ports/logger.js';
import { isClientAbort } from '../client-abort.js';
import { isDependencyOutage } from '../../system/dependency-outage.js';
import { answerOfKind, type ErrorResponse } from '../error-kind-answers.js';
import { HttpError } from '../http-error.js';

/**
 * Every failure leaves as `{ error, details? }` with the spec's status code;
 * nothing unexpected reaches the client beyond "Internal server error".
 */
export function errorResponses(logger: Logger) {
  return async function errorResponsesMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        // The router answers these with a status alone (and `Allow`, which stays).
        if (ctx.status === 404) respond(ctx, { status: 404, error: noSuchEndpoint(ctx.method, ctx.path) });
        else if (ctx.status === 405)
          respond(ctx, {
            status: 405,
            error: `Method ${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow')}`,
          });
        else if (ctx.status === 501) respond(ctx, { status: 501, error: `Method ${ctx.method} is not implemented` });
      }
    } catch (error) {
      if (isClientAbort(error, ctx)) {
        // Nobody is left to answer and nothing failed here: no alarm, no 5xx.
        logger.debug?.(
          { requestId: ctx.state.requestId, path: ctx.path, reason: (error as Error).message },
          'client closed the request before its body was read',
        );
        ctx.state.clientAborted = true;
        respond(ctx, { status: 400, error: 'The client closed the request before sending its body' });
        return;
      }
      const response = toErrorResponse(error);
      if (response === DEPENDENCY_OUTAGE) {
        logger.warn(
          { err: error, requestId: ctx.state.requestId, path: ctx.path },
          'request met an outage of PostgreSQL or NATS',
        );
      } else if (response.status >= 500) {
        logger.error({ err: error, requestId: ctx.state.requestId, path: ctx.path }, 'request failed');
      }
      respond(ctx, response);
    }
  };
}

/** Names the path only when it is short and plainly spelled: hostile paths are not echoed. */
function noSuchEndpoint(method: string, path: string): string {
  return /^[A-Za-z0-9/._~-]{1,200}$/.test(path) ? `No such endpoint: ${method} ${path}` : 'No such endpoint';
}

function respond(ctx: Context, response: ErrorResponse): void {
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  ctx.body =
    response.details === undefined ? { error: response.error } : { error: response.error, details: response.details };
}

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof HttpError)
    return { status: error.status, error: error.message, details: error.details, headers: error.headers };
  const answer = answerOfKind(error);
  if (answer !== undefined) return answer;
  const status = (error as { status?: unknown; expose?: unknown }).status;
  // Errors raised by koa-body and Koa itself (invalid JSON, too large, wrong type) carry a 4xx status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, error: clientErrorMessage(status, error) };
  }
  if (isDependencyOutage(error)) return DEPENDENCY_OUTAGE;
  return { status: 500, error: 'Internal server error' };
}

/** A passing outage is not a fault of the request, nor necessarily of the service: the client may retry. */
const DEPENDENCY_OUTAGE: ErrorResponse = {
  status: 503,
  error: 'The service is briefly unavailable (its database or queue does not answer); retry shortly',
  headers: { 'Retry-After': '2' },
};

function clientErrorMessage(status: number, error: unknown): string {
  const type = (error as { type?: unknown }).type;
  if (status === 413) return 'Request body too large';
  if (status === 415) return 'Content-Type must be application/json';
  // The JSON parser refuses prototype poisoning outright rather than dropping the key.
  if (status === 400 && /prototype property/i.test(String((error as Error).message)))
    return 'request body must not contain the field __proto__';
  if (type === 'entity.parse.failed' || (status === 400 && /json/i.test(String((error as Error).message)))) {
    return 'Request body is not valid JSON';
  }
  return (error as { expose?: boolean }).expose === true ? String((error as Error).message) : 'Bad request';
}
