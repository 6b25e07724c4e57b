import Router from '@koa/router';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import type { HeaderParameters } from '../../http/openapi/operations.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { JobStatusHub, Watching } from '../../live/job-status-hub.js';
import { EventStream } from '../../http/sse/event-stream.js';
import type { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { JobFrameSender } from '../../http/sse/job-frame-sender.js';

export interface DownloadEventsRouteDependencies {
  hub: JobStatusHub;
  connections: EventStreamConnections;
  validation: RequestValidation;
  /** Asked, before a terminal body, whether the stream's key is still active. */
  authenticate: Authenticate;
}

/**
 * GET /download/{jobId}/events: the job's body as Server-Sent Events, with
 * Koa's own streaming (a PassThrough as the body). The format is four short
 * lines per event, and owning the write path keeps each stream to a few
 * kilobytes and one shared heartbeat, which 1,000 streams per process need.
 * A stream keeps its place until its connection closes, not merely until
 * its body ends.
 */
export function downloadEventsRoutes(deps: DownloadEventsRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'watchDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const { jobId } = request.pathParameters('Download job not found');
    const lastId = lastEventId(request.headers());
    const keyId = String(ctx.state.keyId);
    const release = deps.connections.admit(keyId);
    const stream = new EventStream(keyId, ctx.res);
    let watching: Watching | null = null;
    let closed = false;
    const finish = () => {
      watching?.stop();
      watching = null;
      stream.end();
    };
    const frames = new JobFrameSender(stream, lastId, () => deps.authenticate.isStillActive(keyId), finish);
    // Listened for before the job is loaded: a client that leaves meanwhile must not keep its place.
    ctx.res.once('close', () => {
      closed = true;
      finish();
      release();
      deps.connections.remove(stream);
    });
    watching = await deps.hub.watch(jobId, (frame) => frames.send(frame));
    if (closed) {
      finish();
      return;
    }
    const current = watching.latest();
    if (current === null || current.accountId !== accountId) {
      finish();
      throw new HttpError(404, `Download job ${jobId} not found`);
    }
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set({ 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    ctx.body = stream.body;
    deps.connections.add(stream, finish);
    stream.write('retry: 3000\n\n');
    frames.start(watching.latest());
  });
  return router;
}

/** The id of the last event the client has, as the document allows it (digits); -1 without one. */
function lastEventId(headers: HeaderParameters<'watchDownload'>): number {
  const given = headers['Last-Event-ID'];
  // Past 2^53 the number is rounded, but stays above every frame id, which is all it is compared with.
  return given === undefined ? -1 : Number(given);
}
