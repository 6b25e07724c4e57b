import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { IdempotentAdminWrites } from '../../../application/operators/idempotent-admin-writes.js';
import type { ReplayDeadLetter } from '../../../application/operators/replay-dead-letter.js';
import type {
  DeadLetterStore,
  FailingWebhookDeliveries,
  ProcessHeartbeats,
} from '../../../application/ports/operations-status.js';
import type { WorkQueue } from '../../../application/ports/work-queue.js';
import { nextOffsetCursor, pageOffset } from '../../http/offset-cursor.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { authenticatedOperator } from './operator-authentication.js';

export interface AdminSystemRouteDependencies {
  queue: Pick<WorkQueue, 'kind' | 'depth'>;
  /** Per processor, seconds behind the store; null where it is not measured (not the PostgreSQL event store). */
  processorLag: () => Promise<Record<string, number> | null>;
  heartbeats: ProcessHeartbeats;
  deadLetters: DeadLetterStore;
  failingWebhooks: FailingWebhookDeliveries;
  replay: ReplayDeadLetter;
  writes: IdempotentAdminWrites;
  validation: RequestValidation;
}

/** A process silent this long is gone: three missed beats and then some. */
const LIVE_WITHIN_SECONDS = 60;

/** The admin API's view of the running service. */
export function adminSystemRoutes(deps: AdminSystemRouteDependencies): Router {
  const router = new Router();
  const { validation } = deps;
  operationRoute(router, validation, 'adminGetSystem', async (_ctx, request) => {
    const [subjects, processorLagSeconds, processes, deadLetters, failing] = await Promise.all([
      deps.queue.depth(),
      deps.processorLag(),
      deps.heartbeats.recent(LIVE_WITHIN_SECONDS),
      deps.deadLetters.list({ offset: 0, limit: 1 }),
      deps.failingWebhooks.list({ offset: 0, limit: 1 }),
    ]);
    request.respond({
      queue: { kind: deps.queue.kind, subjects },
      processorLagSeconds,
      processes,
      deadLetters: deadLetters.total,
      failingWebhooks: failing.total,
    });
  });
  operationRoute(router, validation, 'adminListDeadLetters', async (_ctx, request) => {
    const { limit = 20, cursor } = request.query();
    const offset = pageOffset(cursor);
    const page = await deps.deadLetters.list({ offset, limit });
    request.respond({ ...page, nextCursor: nextOffsetCursor(offset + limit, page.total) });
  });
  operationRoute(router, validation, 'adminListWebhookFailures', async (_ctx, request) => {
    const { limit = 20, cursor } = request.query();
    const offset = pageOffset(cursor);
    const page = await deps.failingWebhooks.list({ offset, limit });
    request.respond({ ...page, nextCursor: nextOffsetCursor(offset + limit, page.total) });
  });
  operationRoute(router, validation, 'adminReplayDeadLetter', async (ctx, request) => {
    const { deadLetterId } = request.pathParameters('Dead letter not found');
    const requestHash = createHash('sha256').update(`replay ${deadLetterId}`).digest('hex');
    const idempotencyKey = request.headers()['Idempotency-Key'];
    const answer = await deps.writes.run(authenticatedOperator(ctx), { idempotencyKey, requestHash }, async () => ({
      status: 200,
      body: await deps.replay.execute(deadLetterId),
    }));
    if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  return router;
}
