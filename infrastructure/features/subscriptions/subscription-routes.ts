import Router from '@koa/router';
import type { AddSubscription } from '../../../application/subscriptions/add-subscription.js';
import type { ChangeSubscription } from '../../../application/subscriptions/change-subscription.js';
import type { ReadSubscriptions } from '../../../application/subscriptions/read-subscriptions.js';
import type { SubscriptionView } from '../../../application/subscriptions/subscription-view.js';
import type { SubscriptionSource, SubscriptionStart } from '../../../domain/subscription/settings.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { nextOffsetCursor, pageOffset } from '../../http/offset-cursor.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { type UrlPolicies, webhookUrl } from '../../http/url-policies.js';
import { playlistUrl } from '../batches/playlist-url-rule.js';
import { channelUrl } from '../channel-listing/channel-url-rule.js';

export interface SubscriptionRouteDependencies {
  add: AddSubscription;
  read: ReadSubscriptions;
  change: ChangeSubscription;
  validation: RequestValidation;
  urls: UrlPolicies;
}

const DEFAULT_LIMIT = 20;
const NOT_FOUND = 'Subscription not found';

/** `/subscriptions`: an account's channels and playlists checked on a schedule. */
export function subscriptionRoutes(deps: SubscriptionRouteDependencies): Router {
  const router = new Router();

  operationRoute(router, deps.validation, 'createSubscription', async (ctx, request) => {
    const body = request.body();
    const source = subscriptionSource(body, deps.urls);
    if (body.webhookUrl !== undefined) deps.urls.apply(webhookUrl, body.webhookUrl);
    ctx.status = 201;
    ctx.body = publicView(
      await deps.add.execute({
        accountId: authenticatedAccountId(ctx),
        source,
        format: body.format,
        language: body.language ?? null,
        webhookUrl: body.webhookUrl ?? null,
        checkEveryMinutes: body.checkEveryMinutes,
        start: subscriptionStart(body.start),
      }),
    );
  });

  listRoute(router, deps);

  operationRoute(router, deps.validation, 'getSubscription', async (ctx, request) => {
    const { subscriptionId } = request.pathParameters(NOT_FOUND);
    const view = await deps.read.get(authenticatedAccountId(ctx), subscriptionId);
    if (view === null) throw new HttpError(404, NOT_FOUND);
    ctx.body = publicView(view);
  });

  operationRoute(router, deps.validation, 'changeSubscription', async (ctx, request) => {
    const { subscriptionId } = request.pathParameters(NOT_FOUND);
    const changes = request.body();
    if (Object.keys(changes).length === 0)
      throw new HttpError(400, 'at least one of paused, checkEveryMinutes, format or language must be given');
    ctx.body = publicView(await deps.change.change(authenticatedAccountId(ctx), subscriptionId, changes));
  });

  operationRoute(router, deps.validation, 'deleteSubscription', async (ctx, request) => {
    const { subscriptionId } = request.pathParameters(NOT_FOUND);
    await deps.change.remove(authenticatedAccountId(ctx), subscriptionId);
    ctx.status = 204;
  });

  operationRoute(router, deps.validation, 'checkSubscription', async (ctx, request) => {
    const { subscriptionId } = request.pathParameters(NOT_FOUND);
    ctx.status = 202;
    ctx.body = publicView(await deps.change.checkNow(authenticatedAccountId(ctx), subscriptionId));
  });

  return router;
}

/** `GET /subscriptions`: a page of the account's live subscriptions, oldest first. */
function listRoute(router: Router, deps: SubscriptionRouteDependencies): void {
  operationRoute(router, deps.validation, 'listSubscriptions', async (ctx, request) => {
    const query = request.query();
    const offset = pageOffset(query.cursor);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const page = await deps.read.list(authenticatedAccountId(ctx), offset, limit);
    const end = offset + page.items.length;
    ctx.body = {
      subscriptions: page.items.map(publicView),
      total: page.total,
      nextCursor: nextOffsetCursor(end, page.total),
    };
  });
}

/** The view without the account it belongs to: the caller is that account. */
function publicView({ accountId: _own, ...view }: SubscriptionView) {
  return view;
}

/** Exactly one source, checked as the route that takes it alone would (the message names the field). */
function subscriptionSource(
  body: { channelUrl?: string; playlistUrl?: string },
  urls: UrlPolicies,
): SubscriptionSource {
  if ((body.channelUrl === undefined) === (body.playlistUrl === undefined))
    throw new HttpError(400, 'exactly one of channelUrl or playlistUrl must be given');
  if (body.playlistUrl !== undefined) return { kind: 'playlist', url: urls.apply(playlistUrl, body.playlistUrl) };
  return { kind: 'channel', url: urls.apply(channelUrl, body.channelUrl as string) };
}

function subscriptionStart(start: string): SubscriptionStart {
  if (start === 'new') return { kind: 'new' };
  return { kind: 'latest', count: Number(start.slice('latest:'.length)) };
}
