import type { Context } from 'koa';

/**
 * Whether reading the body failed because the client went away: raw-body
 * reports a disconnect while reading as `request.aborted`, and one before
 * reading began as `stream.not.readable` (a 500 of its own making), which
 * is the client's doing only when the request is indeed gone.
 */
export function isClientAbort(error: unknown, ctx: Context): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'request.aborted') return true;
  return type === 'stream.not.readable' && (ctx.req.destroyed || ctx.req.socket?.destroyed === true);
}
