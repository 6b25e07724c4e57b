import type { Context, Next } from 'koa';
import type { Logger } from '../../../application/ports/logger.js';

/** One line per request; headers are not logged, so keys never reach the logs. */
export function requestLogging(logger: Logger) {
  return async function requestLoggingMiddleware(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, accountId: ctx.state.accountId },
        'request',
      );
    }
  };
}
