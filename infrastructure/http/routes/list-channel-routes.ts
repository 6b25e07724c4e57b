import Router from '@koa/router';
import type { ListChannel } from '../../../application/lookups/list-channel.js';
import { authenticatedAccountId } from '../authenticated-account.js';
import type { RequestValidation } from '../request-validation.js';
import type { UrlPolicies } from '../url-policies.js';

export interface ListChannelRouteDependencies {
  listChannel: ListChannel;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function listChannelRoutes(deps: ListChannelRouteDependencies): Router {
  const router = new Router();
  router.post('/list-channel', async (ctx) => {
    const body = deps.validation.body<{ channelUrl: string; maxVideos: number }>('listChannel', ctx.request.body);
    ctx.body = await deps.listChannel.execute({
      accountId: authenticatedAccountId(ctx),
      channelUrl: deps.urls.channelUrl(body.channelUrl),
      maxVideos: body.maxVideos,
      correlationId: ctx.state.requestId as string,
    });
  });
  return router;
}
