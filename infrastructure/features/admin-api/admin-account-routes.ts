import Router from '@koa/router';
import type { ReadAccountStatement } from '../../../application/audit/account-statement.js';
import { decodeJobListCursor } from '../../../application/downloads/job-list-cursor.js';
import type { ListDownloadJobs } from '../../../application/downloads/list-download-jobs.js';
import type { ReadOperatorAccounts } from '../../../application/operators/read-operator-accounts.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import { NotFoundError } from '../../../domain/errors.js';
import { HttpError } from '../../http/http-error.js';
import { nextOffsetCursor, pageOffset } from '../../http/offset-cursor.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { answerStatement } from '../accounts/statement-routes.js';

export interface AdminAccountRouteDependencies {
  accounts: ReadOperatorAccounts;
  statement: ReadAccountStatement;
  listDownloadJobs: ListDownloadJobs;
  validation: RequestValidation;
}

const ACCOUNT_NOT_FOUND = 'Account not found';

/** The admin API's reads of accounts: search, one account, its statement and its jobs. */
export function adminAccountRoutes(deps: AdminAccountRouteDependencies): Router {
  const router = new Router();
  const { validation } = deps;
  operationRoute(router, validation, 'adminListAccounts', async (_ctx, request) => {
    const query = request.query();
    const offset = pageOffset(query.cursor);
    const limit = query.limit ?? 20;
    const { accounts, total } = await deps.accounts.search({
      text: query.q,
      planId: query.plan,
      status: query.status,
      sort: query.sort ?? 'name',
      offset,
      limit,
    });
    request.respond({
      accounts,
      total,
      nextCursor: nextOffsetCursor(offset + limit, total),
    });
  });
  operationRoute(router, validation, 'adminGetAccount', async (ctx, request) => {
    const { accountId } = request.pathParameters(ACCOUNT_NOT_FOUND);
    const account = await deps.accounts.one(accountId);
    if (account === null) throw new NotFoundError(ACCOUNT_NOT_FOUND);
    // Not request.respond: parts of the body are other features' schemas, typed loosely here; tests check the shape.
    ctx.body = account;
  });
  operationRoute(router, validation, 'adminGetStatement', async (ctx, request) => {
    const { accountId } = request.pathParameters(ACCOUNT_NOT_FOUND);
    if (!(await answerStatement(ctx, deps.statement, accountId, request.query())))
      throw new NotFoundError(ACCOUNT_NOT_FOUND);
  });
  operationRoute(router, validation, 'adminListJobs', async (_ctx, request) => {
    const { accountId } = request.pathParameters(ACCOUNT_NOT_FOUND);
    const query = request.query();
    const after = query.cursor === undefined ? undefined : decodeJobListCursor(query.cursor);
    if (after === null)
      throw new HttpError(400, 'cursor is malformed: pass the nextCursor of a previous page as given');
    if ((await deps.accounts.one(accountId)) === null) throw new NotFoundError(ACCOUNT_NOT_FOUND);
    const page = await deps.listDownloadJobs.execute({
      accountId,
      status: query.status,
      limit: query.limit ?? 20,
      after,
    });
    request.respond({ jobs: page.jobs.map(adminJob), nextCursor: page.nextCursor });
  });
  return router;
}

function adminJob(view: DownloadJobView) {
  return {
    jobId: view.jobId,
    status: view.status,
    url: view.url,
    format: view.format,
    title: view.title,
    createdAt: view.createdAt,
    completedAt: view.completedAt ?? null,
    fileSize: view.fileSize ?? null,
    errorCode: view.errorCode ?? null,
  };
}
