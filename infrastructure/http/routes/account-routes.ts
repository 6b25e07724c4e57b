import Router from '@koa/router';
import type { GetAccount } from '../../../application/accounts/get-account.js';
import { authenticatedAccountId } from '../authenticated-account.js';
import { HttpError } from '../http-error.js';

export function accountRoutes(deps: { getAccount: GetAccount }): Router {
  const router = new Router();
  router.get('/me', async (ctx) => {
    const account = await deps.getAccount.execute(authenticatedAccountId(ctx));
    // A valid key whose account the read model lacks means the projector is behind or broken.
    if (account === null) throw new HttpError(500, 'Account data is not available yet; retry shortly');
    ctx.body = account;
  });
  return router;
}
