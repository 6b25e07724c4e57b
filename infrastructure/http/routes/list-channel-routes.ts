import Router from '@koa/router';
import type { ListChannel } from '../../../application/lookups/list-channel.js';
import { authenticatedAccountId } from '../authenticated-account.js';
import { operationRoute } from '../operation-route.js';
import type { RequestValidation } from '../request-validation.js';
import type { UrlPolicies } from '../url-policies.js';

export interface ListChannelRouteDependencies {
  listChannel: ListChannel;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function listChannelRoutes(deps: ListChannelRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'listChannel', async (ctx, request) => {
    const body = request.body();
    request.respond(await deps.listChannel.execute({
      accountId: authenticatedAccountId(ctx),
      channelUrl: deps.urls.channelUrl(body.channelUrl),
      maxVideos: body.maxVideos,
      correlationId: ctx.state.requestId as string,
    }));
  });
  return router;
}
