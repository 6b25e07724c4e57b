import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { authenticatedAccountId } from '../authenticated-account.js';
import { HttpError } from '../http-error.js';
import type { HeaderParameters } from '../openapi/operations.js';
import { operationRoute } from '../operation-route.js';
import type { RequestValidation } from '../request-validation.js';
import type { JobFrame, JobStatusHub, Watching } from '../../live/job-status-hub.js';
import type { EventStreamConnections } from '../sse/event-stream-connections.js';

export interface DownloadEventsRouteDependencies {
  hub: JobStatusHub;
  connections: EventStreamConnections;
  validation: RequestValidation;
}

/** A client this far behind is not reading: it is cut off rather than buffered for. */
const MAX_UNREAD_BYTES = 64 * 1024;

/**
 * GET /download/{jobId}/events: the job's body as Server-Sent Events, with
 * Koa's own streaming (a PassThrough as the body). The format is four short
 * lines per event, and owning the write path keeps each stream to a few
 * kilobytes and one shared heartbeat, which 1,000 streams per process need.
 */
export function downloadEventsRoutes(deps: DownloadEventsRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'watchDownload', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const { jobId } = request.pathParameters('Download job not found');
    let lastId = lastEventId(request.headers());
    const release = deps.connections.admit(String(ctx.state.keyId));
    const stream = new PassThrough();
    let open = false;
    let watching: Watching | null = null;
    let clientGone = false;
    const end = () => {
      clientGone = true;
      if (watching === null) return;
      watching.stop();
      watching = null;
      release();
      deps.connections.remove(stream);
      stream.end();
    };
    // Listened for before the job is loaded: a client that leaves meanwhile must not keep its place.
    ctx.res.once('close', end);
    const send = (frame: JobFrame) => {
      if (!open) return;
      if (frame.id > lastId) {
        lastId = frame.id;
        stream.write(frame.text);
      }
      // After the terminal frame there is nothing more, whether this client had it already or not.
      if (frame.terminal || stream.writableLength > MAX_UNREAD_BYTES) end();
    };
    try {
      watching = await deps.hub.watch(jobId, send);
    } catch (error) {
      release();
      throw error;
    }
    if (clientGone) {
      clientGone = false;
      end();
      return;
    }
    const current = watching.latest();
    if (current === null || current.accountId !== accountId) {
      end();
      throw new HttpError(404, `Download job ${jobId} not found`);
    }
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set({ 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    ctx.body = stream;
    deps.connections.add(stream);
    open = true;
    stream.write('retry: 3000\n\n');
    const latest = watching.latest();
    if (latest !== null) send(latest);
  });
  return router;
}

/** The id of the last event the client has, as the document allows it (digits); -1 without one. */
function lastEventId(headers: HeaderParameters<'watchDownload'>): number {
  const given = headers['Last-Event-ID'];
  // Past 2^53 the number is rounded, but stays above every frame id, which is all it is compared with.
  return given === undefined ? -1 : Number(given);
}
