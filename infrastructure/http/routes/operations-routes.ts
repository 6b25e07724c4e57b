import Router from '@koa/router';
import type { Registry } from 'prom-client';

export type ReadinessCheck = () => Promise<boolean>;

/** Liveness, readiness and metrics: outside the API prefix and without authentication. */
export function operationsRoutes(deps: {
  readinessChecks: Record<string, ReadinessCheck>;
  metrics: Registry;
  mode?: string;
  /** Figures shown with the checks, e.g. processor lag. */
  readinessDetails?: () => Promise<Record<string, unknown>>;
  /** What the service runs with (e.g. the yt-dlp version), under `details`. */
  details?: () => Record<string, unknown>;
}): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const results = await Promise.all(
      Object.entries(deps.readinessChecks).map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), 2_000);
        });
        const ok = await Promise.race([check().catch(() => false), timedOut]);
        clearTimeout(timer);
        return [name, ok ? 'ok' : 'unavailable'] as const;
      }),
    );
    const checks = Object.fromEntries(results);
    const ready = results.every(([, state]) => state === 'ok');
    ctx.status = ready ? 200 : 503;
    const figures = (await deps.readinessDetails?.().catch(() => undefined)) ?? {};
    ctx.body = {
      status: ready ? 'ready' : 'not ready',
      ...(deps.mode === undefined ? {} : { mode: deps.mode }),
      checks,
      ...figures,
      ...(deps.details === undefined ? {} : { details: deps.details() }),
    };
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });

  return router;
}
