import Router from '@koa/router';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { lastEventId, serveWatchedStream } from '../../http/sse/serve-watched-stream.js';
import type { JobFrame } from '../../live/job-status-hub.js';
import { batchBody } from './batch-body.js';
import { pageOffset } from '../../http/offset-cursor.js';
import type { BatchFrame, BatchStatusHub } from './batch-status-hub.js';

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
    const { batchId } = request.pathParameters('Batch not found');
    const query = request.query();
    const offset = pageOffset(query.cursor);
    await serveWatchedStream<BatchFrame>(ctx, {
      accountId: authenticatedAccountId(ctx),
      keyId: String(ctx.state.keyId),
      lastId: lastEventId(request.headers()['Last-Event-ID']),
      connections: deps.connections,
      authenticate: deps.authenticate,
      watch: (onFrame) => deps.hub.watch(batchId, onFrame),
      toText: (frame) => pageFrame(frame, offset, query.limit),
      notFound: `Batch ${batchId} not found`,
    });
  });
  return router;
}

function pageFrame(frame: BatchFrame, offset: number, limit = DEFAULT_LIMIT): JobFrame {
  const body = batchBody(frame.view, offset, limit);
  const text = `id: ${frame.id}\nevent: batch\ndata: ${JSON.stringify(body)}\n\n`;
  return { id: frame.id, accountId: frame.accountId, terminal: frame.terminal, text };
}
