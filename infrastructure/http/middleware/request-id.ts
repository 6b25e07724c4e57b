import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';

/** Every request gets an id (the caller's X-Request-Id when it is sane), echoed back and put in logs. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const given = ctx.get('X-Request-Id');
  const id = /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
}
