import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Registry } from 'prom-client';
import type { Authenticate } from '../../application/accounts/authenticate.js';
import type { Logger } from '../../application/ports/logger.js';
import { httpMetrics } from '../observability/http-metrics.js';
import { requireAuthenticatedAccount } from './authenticated-account.js';
import { bearerAuthentication } from './middleware/bearer-authentication.js';
import { errorResponses } from './middleware/error-responses.js';
import { jsonBody } from './middleware/json-body.js';
import { requestId } from './middleware/request-id.js';
import { requestLogging } from './middleware/request-logging.js';
import { routeTemplate } from './route-template.js';

/** @public The API's base path, for specs that build request paths from it. */
export const API_PREFIX = '/api/v2';
/** The admin API's base path: operators' tokens only, never an account's key. */
const ADMIN_PREFIX = '/admin/v1';
const OPENAPI_PATH = '/openapi.json';

export interface HttpAppDependencies {
  logger: Logger;
  metrics: Registry;
  legacyApiPrefixes: string[];
  bodyLimitBytes: number;
  /** Share of ordinary requests logged (failures and slow requests always are); default 100. */
  requestLogSamplePercent?: number;
  authenticate: Authenticate;
  openApiDocument: object;
  /** Routes under every API prefix, behind bearer authentication. */
  apiRouters: Router[];
  /** Routes outside the API prefixes (files, health, metrics). */
  publicRouters: Router[];
  /** Runs after a request to an API path is authenticated (rate limits). */
  afterAuthentication?: (ctx: Context, next: Next) => Promise<void>;
  /** Routes under ADMIN_PREFIX, behind the operators' own authentication. */
  admin?: AdminRoutes;
}

export interface AdminRoutes {
  routers: Router[];
  /** Authenticates every request under ADMIN_PREFIX, even one that matches no route. */
  authenticate: (ctx: Context, next: Next) => Promise<void>;
  /** On each route itself, the second line of defence: its handler never runs without an operator. */
  requireOperator: (ctx: Context, next: Next) => Promise<void>;
}

/**
 * The Koa application: request id, metrics, logging and error responses
 * around everything; the API mounted under /api/v2 and the legacy prefixes.
 */
export function createHttpApp(deps: HttpAppDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  const prefixes = [API_PREFIX, ...deps.legacyApiPrefixes];

  // Nested routers' routes are copied into the root, whose allowedMethods() (405, 501, OPTIONS) then covers them all;
  // each nested router's own would be one more middleware on every request.
  const root = new Router();

  app.use(requestId);
  app.use(httpMetrics(deps.metrics, (ctx) => routeTemplate(root, ctx)));
  app.use(requestLogging(deps.logger, deps.requestLogSamplePercent));
  app.use(errorResponses(deps.logger));

  for (const router of deps.publicRouters) root.use(router.routes());

  const document = new Router();
  document.get(OPENAPI_PATH, (ctx) => {
    ctx.body = deps.openApiDocument;
  });
  const api = new Router();
  for (const router of deps.apiRouters) {
    // The second line of defence, on each route itself (router-level middleware matches paths case-sensitively
    // while routes do not): whatever path reaches a route, its handler never runs without an account.
    for (const layer of router.stack) if (layer.methods.length > 0) layer.stack.unshift(requireAuthenticatedAccount);
    api.use(router.routes());
  }
  for (const prefix of prefixes) {
    root.use(prefix, document.routes());
    root.use(prefix, api.routes());
  }

  const authenticate = bearerAuthentication(deps.authenticate);
  const parseBody = jsonBody(deps.bodyLimitBytes, deps.logger);
  const { afterAuthentication } = deps;
  const afterKey =
    afterAuthentication === undefined
      ? parseBody
      : (ctx: Context, next: Next) => afterAuthentication(ctx, () => parseBody(ctx, next));
  app.use(underApiPrefix(prefixes, (ctx, next) => authenticate(ctx, () => afterKey(ctx, next))));
  if (deps.admin !== undefined) mountAdmin(app, root, deps.admin, parseBody);
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}

/** The admin routes under ADMIN_PREFIX: every path there (whatever its letter case) is the operators', bodies read after. */
function mountAdmin(
  app: Koa,
  root: Router,
  admin: AdminRoutes,
  parseBody: (ctx: Context, next: Next) => Promise<void>,
) {
  const routes = new Router();
  for (const router of admin.routers) {
    for (const layer of router.stack) if (layer.methods.length > 0) layer.stack.unshift(admin.requireOperator);
    routes.use(router.routes());
  }
  root.use(ADMIN_PREFIX, routes.routes());
  const prefix = ADMIN_PREFIX.toLowerCase();
  app.use(async function underAdminPrefix(ctx: Context, next: Next): Promise<void> {
    const path = ctx.path.toLowerCase();
    if (path !== prefix && !path.startsWith(`${prefix}/`)) {
      await next();
      return;
    }
    await admin.authenticate(ctx, () => parseBody(ctx, next));
  });
}

/**
 * Every path under an API prefix needs the key, even one that matches no
 * route; the document does not. The router matches paths whatever their
 * letter case, so the prefix is compared the same way. Bodies are read only
 * here, after the key: nothing else takes a body.
 */
function underApiPrefix(prefixes: string[], authenticateAndParse: (ctx: Context, next: Next) => Promise<void>) {
  const lowerPrefixes = prefixes.map((prefix) => prefix.toLowerCase());
  return async function underApiPrefixMiddleware(ctx: Context, next: Next): Promise<void> {
    const path = ctx.path.toLowerCase();
    const prefix = lowerPrefixes.find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
    if (prefix === undefined || path === prefix + OPENAPI_PATH) {
      await next();
      return;
    }
    // The path below the prefix, as the routes see it: what the rate limiter's exemption is judged on.
    ctx.state.apiPath = ctx.path.slice(prefix.length);
    await authenticateAndParse(ctx, next);
  };
}
