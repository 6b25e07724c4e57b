import type { Context, Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The status metrics record for a request its client abandoned (nginx's "client closed request"); never sent. */
const CLIENT_CLOSED_STATUS = '499';

/** Request counts and latencies by route template (never by raw path, which would explode label sets); `unmatched` when no route takes the request. */
export function httpMetrics(registry: Registry, routeOf: (ctx: Context) => string | null) {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  return async function httpMetricsMiddleware(ctx: Context, next: Next): Promise<void> {
    const end = duration.startTimer();
    try {
      await next();
    } finally {
      const labels = {
        method: ctx.method,
        route: routeOf(ctx) ?? 'unmatched',
        status: ctx.state.clientAborted === true ? CLIENT_CLOSED_STATUS : String(ctx.status),
      };
      end(labels);
      requests.inc(labels);
    }
  };
}
