import { Authenticate } from '../../application/accounts/authenticate.js';
import { CheckRequestRate } from '../../application/rate-limits/check-request-rate.js';
import type { ApiPart } from '../composition/feature-module.js';
import { FEATURES, OPENAPI_DOCUMENT } from '../features/features.js';
import { TOKENS } from '../composition/tokens.js';
import { createHttpApp } from '../http/create-http-app.js';
import { requestRateLimit } from '../http/middleware/request-rate-limit.js';
import { RequestValidation } from '../http/request-validation.js';
import { operationsRoutes } from '../http/routes/operations-routes.js';
import { UrlPolicies } from '../http/url-policies.js';
import { baseUrl, closeServer, listen } from './http-server.js';
import { readiness } from './readiness.js';
import type { RoleContext } from './role-context.js';
import { Stoppables } from './stoppables.js';

export interface ApiRole {
  /** The API's base address (http://host:port). */
  url: string;
  stop(): Promise<void>;
}

/** Serves the HTTP API, the files and the operations endpoints, with every feature's routes. */
export async function startApiRole(context: RoleContext): Promise<ApiRole> {
  const { container, config, logger } = context;
  // Submissions look videos up: the helpers start now, in the background, rather than on the first request.
  if (config.extractor.warmUp === 'at-start') void container.resolve(TOKENS.warmExtractor)?.start();
  const parts = new Stoppables(logger);
  return parts.starting(async () => {
    const features = await startFeatureParts(context, parts);
    const ytDlp = container.resolve(TOKENS.ytDlp);
    const app = createHttpApp({
      logger,
      metrics: container.resolve(TOKENS.metrics),
      legacyApiPrefixes: config.http.legacyApiPrefixes,
      bodyLimitBytes: config.http.bodyLimitBytes,
      requestLogSamplePercent: config.observability.requestLogSamplePercent,
      authenticate: container.resolve(Authenticate),
      openApiDocument: OPENAPI_DOCUMENT,
      afterAuthentication: requestRateLimit(
        new CheckRequestRate(container.resolve(TOKENS.rateLimitStore), config.rateLimits.limits),
      ),
      apiRouters: features.flatMap((part) => part.apiRouters ?? []),
      admin: features.find((part) => part.admin !== undefined)?.admin,
      publicRouters: [
        ...features.flatMap((part) => part.publicRouters ?? []),
        operationsRoutes({
          mode: config.mode,
          metrics: container.resolve(TOKENS.metrics),
          details: () => ({ ytDlp: ytDlp?.version() ?? null }),
          ...readiness(context, features),
        }),
      ],
    });
    const server = await listen(app.callback(), config.http.host, config.http.port, {
      requestTimeout: config.http.requestTimeoutMs,
      headersTimeout: config.http.headersTimeoutMs,
    });
    const url = baseUrl(server);
    logger.info({ url }, 'API listening');
    return {
      url,
      // The HTTP server stops first, so no new work arrives while the rest winds down.
      stop: async () => {
        for (const part of features) part.closeStreams?.();
        await closeServer(server, config.http.shutdownTimeoutMs);
        await parts.stopAll();
      },
    };
  });
}

async function startFeatureParts(context: RoleContext, parts: Stoppables): Promise<ApiPart[]> {
  const apiContext = {
    ...context,
    validation: new RequestValidation(OPENAPI_DOCUMENT),
    urls: new UrlPolicies(context.config),
  };
  const features = FEATURES.map((feature) => ({ name: feature.name, part: feature.api?.(apiContext) ?? {} }));
  for (const { name, part } of features) {
    await part.start?.();
    const stop = part.stop;
    if (stop !== undefined) parts.add(name, () => stop());
  }
  return features.map(({ part }) => part);
}
