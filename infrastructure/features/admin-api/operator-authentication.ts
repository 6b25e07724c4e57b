import type { Context, Next } from 'koa';
import type { OperatorTokens } from '../../../application/operators/operator-tokens.js';
import type { Operator } from '../../../application/ports/operator-tokens.js';
import { OperatorScopeError } from '../../../application/errors.js';
import { HttpError } from '../../http/http-error.js';

const MISSING_TOKEN_MESSAGE = 'Missing operator token: send it in the header "Authorization: Bearer <OPERATOR_TOKEN>"';
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sets `ctx.state.operator` from the bearer operator token, or answers 401: an account's API key is not one (the
 * tokens are looked up apart, under their own hash). A `read` token is refused every other method with 403.
 */
export function operatorAuthentication(tokens: OperatorTokens) {
  return async function operatorAuthenticationMiddleware(ctx: Context, next: Next): Promise<void> {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.get('Authorization'));
    if (match === null) throw new HttpError(401, MISSING_TOKEN_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer' });
    const operator = await tokens.authenticate(match[1]);
    if (operator === null)
      throw new HttpError(401, 'Invalid operator token', undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    if (operator.scope === 'read' && !READ_METHODS.has(ctx.method)) throw new OperatorScopeError();
    ctx.state.operator = operator;
    await next();
  };
}

/** The operator the token authenticated; a handler reached without one (a routing mistake) answers 401. */
export function authenticatedOperator(ctx: Context): Operator {
  const operator = ctx.state.operator as Operator | undefined;
  if (operator === undefined)
    throw new HttpError(401, MISSING_TOKEN_MESSAGE, undefined, { 'WWW-Authenticate': 'Bearer' });
  return operator;
}

export async function requireOperator(ctx: Context, next: Next): Promise<void> {
  authenticatedOperator(ctx);
  await next();
}
