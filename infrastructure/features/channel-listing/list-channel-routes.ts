import Router from '@koa/router';
import type { ListChannel } from '../../../application/lookups/list-channel.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import type { UrlPolicies } from '../../http/url-policies.js';
import { channelUrl } from './channel-url-rule.js';

export interface ListChannelRouteDependencies {
  listChannel: ListChannel;
  validation: RequestValidation;
  urls: UrlPolicies;
}

export function listChannelRoutes(deps: ListChannelRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'listChannel', async (ctx, request) => {
    const body = request.body();
    // A client that goes away before its answer stops its listing, which releases the units.
    const gone = new AbortController();
    const onClose = () => {
      if (!ctx.res.writableFinished) gone.abort(new Error('The client closed the connection'));
    };
    ctx.res.once('close', onClose);
    try {
      request.respond(
        await deps.listChannel.execute({
          accountId: authenticatedAccountId(ctx),
          channelUrl: deps.urls.apply(channelUrl, body.channelUrl),
          maxVideos: body.maxVideos,
          correlationId: ctx.state.requestId as string,
          signal: gone.signal,
        }),
      );
    } finally {
      ctx.res.off('close', onClose);
    }
  });
  return router;
}
