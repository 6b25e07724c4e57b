import Router from '@koa/router';
import type { GetLookupJob } from '../../../application/lookups/get-lookup-job.js';
import type { SubmitLookupJob } from '../../../application/lookups/submit-lookup-job.js';
import type { ClientDownloadPlatform } from '../../../domain/client-download-url.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { UrlPolicies } from '../../http/url-policies.js';
import { lookupStatusBody } from './lookup-status-body.js';
import { clientDownloadUrl } from './client-download-url-rule.js';

export interface ClientDownloadRouteDependencies {
  submitClientDownload: SubmitLookupJob<{ platform: ClientDownloadPlatform; canonicalUrl: string }>;
  getClientDownloadJob: GetLookupJob;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function clientDownloadRoutes(deps: ClientDownloadRouteDependencies): Router {
  const router = new Router();

  operationRoute(router, deps.validation, 'submitClientDownload', async (ctx, request) => {
    const body = request.body();
    const { url, canonicalUrl, platform } = deps.urls.apply(clientDownloadUrl, body.url);
    request.respond(
      await deps.submitClientDownload.execute({
        accountId: authenticatedAccountId(ctx),
        url,
        details: { platform, canonicalUrl },
        correlationId: ctx.state.requestId as string,
      }),
    );
  });

  operationRoute(router, deps.validation, 'getClientDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    // An id outside the id pattern is not echoed: it may carry control characters, markup or kilobytes.
    const { jobId } = request.pathParameters('Client-download job not found');
    const view = await deps.getClientDownloadJob.execute(accountId, jobId);
    if (view === null) throw new HttpError(404, `Client-download job ${jobId} not found`);
    ctx.body = lookupStatusBody(view);
  });

  return router;
}
