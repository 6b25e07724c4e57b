import Router from '@koa/router';
import type { ListWebhookAttempts } from '../../../application/downloads/list-webhook-attempts.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';

/** GET /download/{jobId}/webhook-attempts: the owner's view of the job's webhook delivery. */
export function webhookAttemptsRoutes(deps: {
  listWebhookAttempts: ListWebhookAttempts;
  validation: RequestValidation;
}): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'listWebhookAttempts', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const { jobId } = request.pathParameters('Download job not found');
    const attempts = await deps.listWebhookAttempts.execute(accountId, jobId);
    if (attempts === null) throw new HttpError(404, `Download job ${jobId} not found`);
    request.respond({ attempts });
  });
  return router;
}
