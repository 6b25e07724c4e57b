import type { Context, Next } from 'koa';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { HttpError } from '../http-error.js';

export const MISSING_KEY_MESSAGE = 'Missing API key: send it in the header "Authorization: Bearer <API_KEY>"';
export const INVALID_KEY_MESSAGE = 'Invalid API key';

/** Sets `ctx.state.accountId` from the bearer key, or answers 401. */
export function bearerAuthentication(authenticate: Authenticate) {
  return async function bearerAuthenticationMiddleware(ctx: Context, next: Next): Promise<void> {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.get('Authorization'));
    if (match === null) throw new HttpError(401, MISSING_KEY_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer' });
    const owner = await authenticate.execute(match[1]);
    if (owner === null)
      throw new HttpError(401, INVALID_KEY_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    ctx.state.accountId = owner.accountId;
    ctx.state.keyId = owner.keyId;
    ctx.state.planId = owner.planId;
    await next();
  };
}
