import Router from '@koa/router';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { lastEventId, serveWatchedStream } from '../../http/sse/serve-watched-stream.js';
import type { JobFrame, JobStatusHub } from '../../live/job-status-hub.js';

export interface DownloadEventsRouteDependencies {
  hub: JobStatusHub;
  connections: EventStreamConnections;
  validation: RequestValidation;
  /** Asked, before a terminal body, whether the stream's key is still active. */
  authenticate: Authenticate;
}

/**
 * GET /download/{jobId}/events: the job's body as Server-Sent Events. The
 * format is four short lines per event, and owning the write path keeps each
 * stream to a few kilobytes and one shared heartbeat, which 1,000 streams per
 * process need.
 */
export function downloadEventsRoutes(deps: DownloadEventsRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'watchDownload', async (ctx, request) => {
    const { jobId } = request.pathParameters('Download job not found');
    await serveWatchedStream<JobFrame>(ctx, {
      accountId: authenticatedAccountId(ctx),
      keyId: String(ctx.state.keyId),
      lastId: lastEventId(request.headers()['Last-Event-ID']),
      connections: deps.connections,
      authenticate: deps.authenticate,
      watch: (onFrame) => deps.hub.watch(jobId, onFrame),
      toText: (frame) => frame,
      notFound: `Download job ${jobId} not found`,
    });
  });
  return router;
}
