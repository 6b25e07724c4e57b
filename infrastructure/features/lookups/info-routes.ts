import Router from '@koa/router';
import type { GetLookupJob } from '../../../application/lookups/get-lookup-job.js';
import type { SubmitLookupJob } from '../../../application/lookups/submit-lookup-job.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { type UrlPolicies, videoUrl } from '../../http/url-policies.js';
import { lookupStatusBody } from './lookup-status-body.js';

/** What an info job records beside the submitted URL. */
export interface InfoJobDetails {
  includeAudioTracks: boolean;
  /** The video's canonical URL: the extractor is asked there, as for downloads. */
  videoUrl: string;
}

export interface InfoRouteDependencies {
  submitInfo: SubmitLookupJob<InfoJobDetails>;
  getInfoJob: GetLookupJob;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function infoRoutes(deps: InfoRouteDependencies): Router {
  const router = new Router();

  operationRoute(router, deps.validation, 'submitInfo', async (ctx, request) => {
    const body = request.body();
    const video = deps.urls.apply(videoUrl, body.url);
    request.respond(
      await deps.submitInfo.execute({
        accountId: authenticatedAccountId(ctx),
        // The job answers the URL as submitted ("the submitted URL"), as downloads do.
        url: video.url,
        details: { includeAudioTracks: body.includeAudioTracks, videoUrl: video.canonicalUrl },
        correlationId: ctx.state.requestId as string,
      }),
    );
  });

  operationRoute(router, deps.validation, 'getInfo', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    // An id outside the id pattern is not echoed: it may carry control characters, markup or kilobytes.
    const { jobId } = request.pathParameters('Info job not found');
    const view = await deps.getInfoJob.execute(accountId, jobId);
    if (view === null) throw new HttpError(404, `Info job ${jobId} not found`);
    ctx.body = lookupStatusBody(view);
  });

  return router;
}
