import Router from '@koa/router';
import { decodeJobListCursor } from '../../../application/downloads/job-list-cursor.js';
import type { ListDownloadJobs } from '../../../application/downloads/list-download-jobs.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';

export interface DownloadListRouteDependencies {
  listDownloadJobs: ListDownloadJobs;
  /** The body of each job as GET /download/{jobId} answers it now (progress included). */
  statusBody: (view: DownloadJobView) => Record<string, unknown>;
  validation: RequestValidation;
}

const DEFAULT_LIMIT = 20;

/** GET /downloads: the caller's own jobs, newest first, a page at a time. */
export function downloadListRoutes(deps: DownloadListRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'listDownloads', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const query = request.query();
    const after = query.cursor === undefined ? undefined : decodeJobListCursor(query.cursor);
    if (after === null)
      throw new HttpError(400, 'cursor is malformed: pass the nextCursor of a previous page as given');
    const page = await deps.listDownloadJobs.execute({
      accountId,
      status: query.status,
      limit: query.limit ?? DEFAULT_LIMIT,
      after,
    });
    ctx.body = { jobs: page.jobs.map((view) => deps.statusBody(view)), nextCursor: page.nextCursor };
  });
  return router;
}
