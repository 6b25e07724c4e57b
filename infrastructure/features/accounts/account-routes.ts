import Router from '@koa/router';
import type { GetAccount } from '../../../application/accounts/get-account.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';

export function accountRoutes(deps: { getAccount: GetAccount; validation: RequestValidation }): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'getMe', async (ctx) => {
    const account = await deps.getAccount.execute(authenticatedAccountId(ctx));
    // A valid key whose account the read model lacks means the projector is behind or broken.
    if (account === null) throw new HttpError(500, 'Account data is not available yet; retry shortly');
    // Not request.respond: the read model types balances as partial, though it always fills the three the document requires.
    ctx.body = account;
  });
  return router;
}
