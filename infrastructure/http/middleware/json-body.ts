import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Logger } from '../../../application/ports/logger.js';
import { HttpError } from '../http-error.js';
import { nestsDeeperThan } from '../json-nesting-depth.js';

/** The encodings the body parser decodes, each alone: a list such as `gzip, br` is not taken. */
const BODY_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'];

/** No request body of this API nests deeper than 2 levels; 32 leaves room and keeps validation's recursion shallow. */
const MAX_JSON_NESTING_DEPTH = 32;

/**
 * Requests with a body must be JSON (415 otherwise) and at most `limitBytes` (413).
 * Requests without a body pass through with `ctx.request.body` left empty.
 * Bodies nested more than MAX_JSON_NESTING_DEPTH levels deep are a 400.
 */
export function jsonBody(limitBytes: number, logger: Logger) {
  const parsedMethods = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH];
  const parse = koaBody({
    json: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonLimit: limitBytes,
    jsonStrict: true,
    parsedMethods,
  });
  return async function jsonBodyMiddleware(ctx: Context, next: Next): Promise<void> {
    // Polls and other reads skip the parser entirely.
    if (!(parsedMethods as string[]).includes(ctx.method)) return next();
    if (ctx.request.length !== 0 && ctx.get('Content-Type') !== '' && !ctx.is('application/json')) {
      throw new HttpError(415, 'Content-Type must be application/json');
    }
    const encoding = ctx.get('Content-Encoding');
    if (encoding !== '' && !BODY_ENCODINGS.includes(encoding)) {
      throw new HttpError(415, `Content-Encoding must be one of ${BODY_ENCODINGS.join(', ')} (a single one)`);
    }
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
        if (nestsDeeperThan(ctx.request.body, MAX_JSON_NESTING_DEPTH)) {
          throw new HttpError(400, `request body is nested more than ${MAX_JSON_NESTING_DEPTH} levels deep`);
        }
        await next();
      });
    } catch (error) {
      // A body that does not decompress fails inside zlib, with no HTTP status: the client's fault, not the server's.
      if (
        !parsed &&
        encoding !== '' &&
        encoding !== 'identity' &&
        typeof (error as { status?: unknown }).status !== 'number'
      ) {
        // One line, without zlib's stack: a client's broken body is worth noticing, not worth an alarm.
        logger.warn(
          { requestId: ctx.state.requestId, path: ctx.path, encoding, reason: (error as Error).message },
          'Request body did not decode',
        );
        throw new HttpError(400, `Request body is not valid ${encoding} data, as its Content-Encoding says`);
      }
      throw error;
    }
  };
}
