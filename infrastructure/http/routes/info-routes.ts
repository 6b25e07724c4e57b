import Router from '@koa/router';
import type { GetLookupJob } from '../../../application/lookups/get-lookup-job.js';
import type { SubmitLookupJob } from '../../../application/lookups/submit-lookup-job.js';
import { authenticatedAccountId } from '../authenticated-account.js';
import { HttpError } from '../http-error.js';
import type { RequestValidation } from '../request-validation.js';
import type { UrlPolicies } from '../url-policies.js';
import { lookupStatusBody } from './lookup-status-body.js';

export interface InfoRouteDependencies {
  submitInfo: SubmitLookupJob<{ includeAudioTracks: boolean }>;
  getInfoJob: GetLookupJob;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function infoRoutes(deps: InfoRouteDependencies): Router {
  const router = new Router();

  router.post('/info', async (ctx) => {
    const body = deps.validation.body<{ url: string; includeAudioTracks: boolean }>('submitInfo', ctx.request.body);
    ctx.body = await deps.submitInfo.execute({
      accountId: authenticatedAccountId(ctx),
      // The extractor sees only the video's canonical URL, as for downloads.
      url: deps.urls.videoUrl(body.url).canonicalUrl,
      details: { includeAudioTracks: body.includeAudioTracks },
      correlationId: ctx.state.requestId as string,
    });
  });

  router.get('/info/:jobId', async (ctx) => {
    const accountId = authenticatedAccountId(ctx);
    // An id outside the id pattern is not echoed: it may carry control characters, markup or kilobytes.
    const { jobId } = deps.validation.pathParameters('getInfo', ctx.params, 'Info job not found');
    const view = await deps.getInfoJob.execute(accountId, jobId);
    if (view === null) throw new HttpError(404, `Info job ${jobId} not found`);
    ctx.body = lookupStatusBody(view);
  });

  return router;
}
