import type Router from '@koa/router';
import type { Context } from 'koa';

/**
 * The template of the route a request matched (`/api/v2/download/:jobId`),
 * for metric labels: the router's own record once routing ran, else the
 * router asked afresh, since authentication and rate limits answer before
 * routing. Null when no route takes the path and method.
 */
export function routeTemplate(router: Router, ctx: Context): string | null {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const route = [...router.match(ctx.path, ctx.method).pathAndMethod]
    .reverse()
    .find((layer) => layer.methods.length > 0);
  return typeof route?.path === 'string' ? route.path : null;
}
