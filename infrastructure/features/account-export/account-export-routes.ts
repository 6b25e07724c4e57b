import Router from '@koa/router';
import type { ExportAccount } from '../../../application/accounts/export-account.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';

export interface AccountExportRouteDependencies {
  exportAccount: ExportAccount;
  /** A job as GET /download/{jobId} answers it now. */
  statusBody: (view: DownloadJobView) => Record<string, unknown>;
  validation: RequestValidation;
}

/** GET /me/export: the caller's own data, whole, as a JSON attachment. */
export function accountExportRoutes(deps: AccountExportRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'exportAccount', async (ctx) => {
    const accountId = authenticatedAccountId(ctx);
    const exported = await deps.exportAccount.execute(accountId, deps.statusBody);
    if (exported === null) throw new HttpError(500, 'Account data is not available yet; retry shortly');
    ctx.set('Content-Disposition', `attachment; filename="account-${accountId}.json"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = exported;
  });
  return router;
}
