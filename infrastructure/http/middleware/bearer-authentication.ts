import type { Context, Next } from 'koa';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { accessRefusal } from '../../../domain/account/access.js';
import { HttpError } from '../http-error.js';

export const MISSING_KEY_MESSAGE = 'Missing API key: send it in the header "Authorization: Bearer <API_KEY>"';
const INVALID_KEY_MESSAGE = 'Invalid API key';
const READ_ONLY_KEY_MESSAGE =
  'This API key is read-only: it may poll and list, not submit or change anything; use a full key for that';
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const MALFORMED_KEY_MESSAGE =
  'Malformed API key: it contains a space or tab; send the key exactly as issued, in one piece, in the header "Authorization: Bearer <API_KEY>"';

/** Sets `ctx.state.accountId` from the bearer key, or answers 401. */
export function bearerAuthentication(authenticate: Authenticate) {
  return async function bearerAuthenticationMiddleware(ctx: Context, next: Next): Promise<void> {
    const authorization = ctx.get('Authorization');
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match === null) {
      // A key pasted with a space or tab inside it was given, just not as one word: say so rather than "missing".
      const malformed = /^Bearer[ \t]+\S+[ \t]+\S/i.test(authorization);
      throw new HttpError(401, malformed ? MALFORMED_KEY_MESSAGE : MISSING_KEY_MESSAGE, undefined, {
        'WWW-Authenticate': malformed ? 'Bearer error="invalid_token"' : 'Bearer',
      });
    }
    const owner = await authenticate.execute(match[1]);
    if (owner === null)
      throw new HttpError(401, INVALID_KEY_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    // Suspended or closed: the key is right, the account may not be used; say why rather than "invalid".
    const access = owner.access ?? null;
    if (access !== null) throw new HttpError(403, accessRefusal(access));
    if (owner.readOnly === true && !READ_METHODS.has(ctx.method)) throw new HttpError(403, READ_ONLY_KEY_MESSAGE);
    ctx.state.accountId = owner.accountId;
    ctx.state.keyId = owner.keyId;
    ctx.state.planId = owner.planId;
    await next();
  };
}
