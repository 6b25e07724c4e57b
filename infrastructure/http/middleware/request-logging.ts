import type { Context, Next } from 'koa';
import type { Logger } from '../../../application/ports/logger.js';

/** A request slower than this is always logged. */
const SLOW_REQUEST_MS = 1_000;

/**
 * One line per failed (5xx) or slow request, and per `samplePercent` of the
 * others (every n-th request, so the share is exact; each line says the
 * share it stands for). Metrics count every request; a line per poll would
 * cost more than the poll. Headers are not logged, so keys never reach the logs.
 */
export function requestLogging(logger: Logger, samplePercent = 100) {
  const every = samplePercent <= 0 ? 0 : Math.round(100 / samplePercent);
  let seen = 0;
  return async function requestLoggingMiddleware(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      seen = every === 0 ? 0 : (seen + 1) % every;
      const sampled = every !== 0 && seen === 0;
      if (sampled || ctx.status >= 500 || ms >= SLOW_REQUEST_MS) {
        logger.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(ms * 10) / 10,
            accountId: ctx.state.accountId,
            samplePercent: sampled ? samplePercent : 100,
          },
          'request',
        );
      }
    }
  };
}
