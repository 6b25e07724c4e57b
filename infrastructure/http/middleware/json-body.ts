import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { HttpError } from '../http-error.js';

/**
 * Requests with a body must be JSON (415 otherwise) and at most `limitBytes` (413).
 * Requests without a body pass through with `ctx.request.body` left empty.
 */
export function jsonBody(limitBytes: number) {
  const parsedMethods = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH];
  const parse = koaBody({ json: true, multipart: false, urlencoded: false, text: false, jsonLimit: limitBytes, jsonStrict: true, parsedMethods });
  return async function jsonBodyMiddleware(ctx: Context, next: Next): Promise<void> {
    // Polls and other reads skip the parser entirely.
    if (!(parsedMethods as string[]).includes(ctx.method)) return next();
    if (ctx.request.length !== 0 && ctx.get('Content-Type') !== '' && !ctx.is('application/json')) {
      throw new HttpError(415, 'Content-Type must be application/json');
    }
    await parse(ctx, next);
  };
}
