import type { Context, Next } from 'koa';
import { HttpError } from './http-error.js';
import { MISSING_KEY_MESSAGE } from './middleware/bearer-authentication.js';

/**
 * The account the bearer key authenticated. Handlers read the account only
 * through this, so a handler reached without authentication (a routing
 * mistake) answers 401 instead of acting for nobody.
 */
export function authenticatedAccountId(ctx: Context): string {
  const accountId: unknown = ctx.state.accountId;
  if (typeof accountId !== 'string' || accountId === '')
    throw new HttpError(401, MISSING_KEY_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer' });
  return accountId;
}

/** Router middleware: nothing behind it runs without an authenticated account. */
export async function requireAuthenticatedAccount(ctx: Context, next: Next): Promise<void> {
  authenticatedAccountId(ctx);
  await next();
}
