import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import {
  type HeaderParameters,
  type OperationId,
  type OperationWithBody,
  type PathParameters,
  type QueryParameters,
  type RequestBody,
  type ResponseBody,
} from './openapi/operations.js';
import type { RequestValidation } from './request-validation.js';

/**
 * A request to one documented operation. Each part is validated when asked
 * for, so a handler keeps the order of its checks (and of its refusals).
 */
export interface OperationRequest<Id extends OperationId> {
  body: Id extends OperationWithBody ? () => RequestBody<Id> : never;
  headers(): HeaderParameters<Id>;
  query(): QueryParameters<Id>;
  /** The path parameters, or a 404 with `notFoundMessage`: a malformed id names nothing, and is not echoed. */
  pathParameters(notFoundMessage: string): PathParameters<Id>;
  /** Answers 200 with `body`, of the type the document gives. */
  respond(body: ResponseBody<Id>): void;
}

export type OperationHandler<Id extends OperationId> = (
  ctx: RouterContext,
  request: OperationRequest<Id>,
) => Promise<void>;

/**
 * Registers the handler of `operationId` on the method and path the document
 * gives it; an id the document lacks does not compile.
 */
export function operationRoute<Id extends OperationId>(
  router: Router,
  validation: RequestValidation,
  operationId: Id,
  handler: OperationHandler<Id>,
): void {
  const { method, path } = validation.route(operationId);
  router[method](path, (ctx) => handler(ctx, operationRequest(ctx, validation, operationId)));
}

function operationRequest<Id extends OperationId>(
  ctx: RouterContext,
  validation: RequestValidation,
  operationId: Id,
): OperationRequest<Id> {
  return {
    // Only operations with a body are given one; the type says which.
    body: (() =>
      validation.body(operationId as Id & OperationWithBody, ctx.request.body)) as OperationRequest<Id>['body'],
    headers: () => validation.headers(operationId, ctx.headers),
    query: () => validation.query(operationId, ctx.query),
    pathParameters: (notFoundMessage) => validation.pathParameters(operationId, ctx.params, notFoundMessage),
    respond: (body) => {
      ctx.body = body;
    },
  };
}
