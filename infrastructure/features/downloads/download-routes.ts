import Router from '@koa/router';
import type { CancelDownload } from '../../../application/downloads/cancel-download.js';
import type { GetDownloadJob } from '../../../application/downloads/get-download-job.js';
import type { SubmitDownload } from '../../../application/downloads/submit-download.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { DownloadLinks } from '../../../application/ports/download-links.js';
import type { DownloadProgress } from '../../../application/ports/download-progress.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { type UrlPolicies, videoUrl, webhookUrl } from '../../http/url-policies.js';
import { downloadStatusBody } from '../../http/routes/download-status-body.js';

export interface DownloadRouteDependencies {
  submitDownload: SubmitDownload;
  getDownloadJob: GetDownloadJob;
  cancelDownload: CancelDownload;
  links: DownloadLinks;
  clock: Clock;
  validation: RequestValidation;
  urls: UrlPolicies;
  /** The last progress report heard for a running job, if any. */
  progressOf?: (jobId: string) => DownloadProgress | undefined;
}

export function downloadRoutes(deps: DownloadRouteDependencies): Router {
  const router = new Router();

  operationRoute(router, deps.validation, 'submitDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const headers = request.headers();
    const body = request.body();
    const video = deps.urls.apply(videoUrl, body.url);
    if (body.webhookUrl !== undefined) deps.urls.apply(webhookUrl, body.webhookUrl);
    request.respond(
      await deps.submitDownload.execute({
        accountId,
        url: video.url,
        videoUrl: video.canonicalUrl,
        format: body.format,
        startTime: body.startTime,
        endTime: body.endTime,
        language: body.language,
        webhookUrl: body.webhookUrl,
        correlationId: ctx.state.requestId as string,
        idempotencyKey: headers['Idempotency-Key'],
      }),
    );
  });

  operationRoute(router, deps.validation, 'getDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    // An id outside the id pattern is not echoed: it may carry control characters, markup or kilobytes.
    const { jobId } = request.pathParameters('Download job not found');
    const view = await deps.getDownloadJob.execute(accountId, jobId);
    if (view === null) throw new HttpError(404, `Download job ${jobId} not found`);
    ctx.body = downloadStatusBody(view, deps.links, deps.clock.now(), deps.progressOf?.(jobId));
  });

  operationRoute(router, deps.validation, 'cancelDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    // As for GET: an id outside the id pattern is never echoed.
    const { jobId } = request.pathParameters('Download job not found');
    const view = await deps.cancelDownload.execute(accountId, jobId, ctx.state.requestId as string);
    if (view === null) throw new HttpError(404, `Download job ${jobId} not found`);
    ctx.body = downloadStatusBody(view, deps.links, deps.clock.now());
  });

  return router;
}
