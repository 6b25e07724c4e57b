import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Registry } from 'prom-client';
import type { Authenticate } from '../../application/accounts/authenticate.js';
import type { Logger } from '../../application/ports/logger.js';
import { httpMetrics } from '../observability/http-metrics.js';
import { bearerAuthentication } from './middleware/bearer-authentication.js';
import { errorResponses } from './middleware/error-responses.js';
import { jsonBody } from './middleware/json-body.js';
import { requestId } from './middleware/request-id.js';
import { requestLogging } from './middleware/request-logging.js';

export const API_PREFIX = '/api/v2';
const OPENAPI_PATH = '/openapi.json';

export interface HttpAppDependencies {
  logger: Logger;
  metrics: Registry;
  legacyApiPrefixes: string[];
  bodyLimitBytes: number;
  authenticate: Authenticate;
  openApiDocument: object;
  /** Routes under every API prefix, behind bearer authentication. */
  apiRouters: Router[];
  /** Routes outside the API prefixes (files, health, metrics). */
  publicRouters: Router[];
  /** Runs after a request to an API path is authenticated (rate limits). */
  afterAuthentication?: (ctx: Context, next: Next) => Promise<void>;
}

/**
 * The Koa application: request id, metrics, logging and error responses
 * around everything; the API mounted under /api/v2 and the legacy prefixes.
 */
export function createHttpApp(deps: HttpAppDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  const prefixes = [API_PREFIX, ...deps.legacyApiPrefixes];

  app.use(requestId);
  app.use(httpMetrics(deps.metrics));
  app.use(requestLogging(deps.logger));
  app.use(errorResponses(deps.logger));

  const root = new Router();
  for (const router of deps.publicRouters) root.use(router.routes(), router.allowedMethods());

  const api = new Router();
  api.get(OPENAPI_PATH, (ctx) => {
    ctx.body = deps.openApiDocument;
  });
  for (const router of deps.apiRouters) api.use(router.routes(), router.allowedMethods());
  for (const prefix of prefixes) root.use(prefix, api.routes(), api.allowedMethods());

  const authenticate = bearerAuthentication(deps.authenticate);
  const { afterAuthentication } = deps;
  app.use(
    authenticateApiPaths(
      prefixes,
      afterAuthentication === undefined ? authenticate : (ctx, next) => authenticate(ctx, () => afterAuthentication(ctx, next)),
    ),
  );
  app.use(jsonBody(deps.bodyLimitBytes));
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}

/** Every path under an API prefix needs the key, even one that matches no route; the document does not. */
function authenticateApiPaths(prefixes: string[], authenticate: (ctx: Context, next: Next) => Promise<void>) {
  return async function authenticateApiPathsMiddleware(ctx: Context, next: Next): Promise<void> {
    const prefix = prefixes.find((candidate) => ctx.path === candidate || ctx.path.startsWith(`${candidate}/`));
    if (prefix === undefined || ctx.path === prefix + OPENAPI_PATH) return next();
    return authenticate(ctx, next);
  };
}
