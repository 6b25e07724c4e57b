import Router from '@koa/router';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { EventStream } from '../../http/sse/event-stream.js';
import type { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { JobFrameSender } from '../../http/sse/job-frame-sender.js';
import type { JobFrame } from '../../live/job-status-hub.js';
import { batchBody, decodeBatchCursor } from './batch-body.js';
import type { BatchFrame, BatchStatusHub, BatchWatching } from './batch-status-hub.js';

export interface BatchEventsRouteDependencies {
  hub: BatchStatusHub;
  /** The job streams' own: one limit per API key and per process for both, closed together on revocation. */
  connections: EventStreamConnections;
  validation: RequestValidation;
  /** Asked, before a terminal body, whether the stream's key is still active. */
  authenticate: Authenticate;
}

const DEFAULT_LIMIT = 20;

/**
 * GET /download-batch/{batchId}/events: the batch's body, the page that
 * `GET /download-batch/{batchId}` answers for the same `limit` and `cursor`,
 * as Server-Sent Events, with the job streams' rules: the same sender (ids,
 * `Last-Event-ID`, the key checked before the terminal body), limits and
 * closing.
 */
export function batchEventsRoutes(deps: BatchEventsRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'watchBatch', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const { batchId } = request.pathParameters('Batch not found');
    const query = request.query();
    const offset = query.cursor === undefined ? 0 : decodeBatchCursor(query.cursor);
    if (offset === null)
      throw new HttpError(400, 'cursor is malformed: pass the nextCursor of a previous page as given');
    const given = request.headers()['Last-Event-ID'];
    const keyId = String(ctx.state.keyId);
    const release = deps.connections.admit(keyId);
    const stream = new EventStream(keyId, ctx.res);
    let watching: BatchWatching | null = null;
    let closed = false;
    const finish = () => {
      watching?.stop();
      watching = null;
      stream.end();
    };
    const lastId = given === undefined ? -1 : Number(given);
    const frames = new JobFrameSender(stream, lastId, () => deps.authenticate.isStillActive(keyId), finish);
    const page = (frame: BatchFrame | null) => (frame === null ? null : pageFrame(frame, offset, query.limit));
    // Listened for before the batch is loaded: a client that leaves meanwhile must not keep its place.
    ctx.res.once('close', () => {
      closed = true;
      finish();
      release();
      deps.connections.remove(stream);
    });
    watching = await deps.hub.watch(batchId, (frame) => frames.send(pageFrame(frame, offset, query.limit)));
    if (closed) return finish();
    const current = watching.latest();
    if (current === null || current.accountId !== accountId) {
      finish();
      throw new HttpError(404, `Batch ${batchId} not found`);
    }
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set({ 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    ctx.body = stream.body;
    deps.connections.add(stream, finish);
    stream.write('retry: 3000\n\n');
    frames.start(page(watching.latest()));
  });
  return router;
}

function pageFrame(frame: BatchFrame, offset: number, limit = DEFAULT_LIMIT): JobFrame {
  const body = batchBody(frame.view, offset, limit);
  const text = `id: ${frame.id}\nevent: batch\ndata: ${JSON.stringify(body)}\n\n`;
  return { id: frame.id, accountId: frame.accountId, terminal: frame.terminal, text };
}
