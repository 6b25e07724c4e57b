import Router from '@koa/router';
import type { ChangeBatch } from '../../../application/batches/cancel-and-retry-batch.js';
import type { GetBatch } from '../../../application/batches/get-batch.js';
import type { SubmitBatch } from '../../../application/batches/submit-batch.js';
import type { BatchSource } from '../../../domain/batch/source.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { type UrlPolicies, videoUrl, webhookUrl } from '../../http/url-policies.js';
import { channelUrl } from '../channel-listing/channel-url-rule.js';
import { playlistUrl } from './playlist-url-rule.js';
import { batchBody } from './batch-body.js';
import { pageOffset } from '../../http/offset-cursor.js';

export interface BatchRouteDependencies {
  submitBatch: SubmitBatch;
  getBatch: GetBatch;
  changeBatch: ChangeBatch;
  validation: RequestValidation;
  urls: UrlPolicies;
}

const DEFAULT_LIMIT = 20;

/** `/download-batch`: submit, read, cancel and retry a batch of the caller's own. */
export function batchRoutes(deps: BatchRouteDependencies): Router {
  const router = new Router();

  operationRoute(router, deps.validation, 'submitBatch', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const body = request.body();
    const source = batchSource(body, deps);
    if (body.webhookUrl !== undefined) deps.urls.apply(webhookUrl, body.webhookUrl);
    if (body.batchWebhookUrl !== undefined) checkBatchWebhookUrl(deps.urls, body.batchWebhookUrl);
    ctx.status = 202;
    ctx.body = await deps.submitBatch.execute({
      accountId,
      source,
      maxVideos: body.maxVideos,
      format: body.format,
      language: body.language ?? null,
      webhookUrl: body.webhookUrl ?? null,
      batchWebhookUrl: body.batchWebhookUrl ?? null,
    });
  });

  operationRoute(router, deps.validation, 'getBatch', async (ctx, request) => {
    const accountId = authenticatedAccountId(ctx);
    const { batchId } = request.pathParameters('Batch not found');
    const query = request.query();
    const offset = pageOffset(query.cursor);
    const view = await deps.getBatch.execute(accountId, batchId);
    if (view === null) throw new HttpError(404, `Batch ${batchId} not found`);
    ctx.body = batchBody(view, offset, query.limit ?? DEFAULT_LIMIT);
  });

  operationRoute(router, deps.validation, 'cancelBatch', async (ctx, request) => {
    const { batchId } = request.pathParameters('Batch not found');
    await deps.changeBatch.cancel(authenticatedAccountId(ctx), batchId);
    ctx.status = 202;
    ctx.body = { batchId, message: 'Cancel recorded: waiting videos are withdrawn and running jobs cancelled.' };
  });

  operationRoute(router, deps.validation, 'retryBatch', async (ctx, request) => {
    const { batchId } = request.pathParameters('Batch not found');
    await deps.changeBatch.retry(authenticatedAccountId(ctx), batchId);
    ctx.status = 202;
    ctx.body = { batchId, message: 'Retry recorded: the failed videos get new jobs as slots free up.' };
  });

  return router;
}

interface SourceFields {
  playlistUrl?: string;
  channelUrl?: string;
  urls?: string[];
}

/** Exactly one source; each URL checked as the route that takes it alone would (the message names the field). */
function batchSource(body: SourceFields, deps: BatchRouteDependencies): BatchSource {
  const given = [body.playlistUrl, body.channelUrl, body.urls].filter((field) => field !== undefined).length;
  if (given !== 1) throw new HttpError(400, 'exactly one of playlistUrl, channelUrl or urls must be given');
  if (body.playlistUrl !== undefined) return { kind: 'playlist', url: deps.urls.apply(playlistUrl, body.playlistUrl) };
  if (body.channelUrl !== undefined) return { kind: 'channel', url: deps.urls.apply(channelUrl, body.channelUrl) };
  const urls = (body.urls ?? []).map((url, index) => {
    try {
      return deps.urls.apply(videoUrl, url).canonicalUrl;
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(400, `urls[${index}]: ${error.message}`);
      throw error;
    }
  });
  return { kind: 'urls', urls };
}

function checkBatchWebhookUrl(urls: UrlPolicies, url: string): void {
  try {
    urls.apply(webhookUrl, url);
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(400, error.message.replace(/^webhookUrl/, 'batchWebhookUrl'));
    throw error;
  }
}
