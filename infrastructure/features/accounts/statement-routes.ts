import Router from '@koa/router';
import type { Context } from 'koa';
import type { QueryParameters } from '../../http/openapi/operations.js';
import type { ReadAccountStatement } from '../../../application/audit/account-statement.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { HttpError } from '../../http/http-error.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { statementCsv } from './statement-csv.js';

const DEFAULT_LIMIT = 100;

/** GET /me/statement: the caller's own ledger, a page at a time, as JSON or (Accept: text/csv) CSV. */
export function statementRoutes(deps: { statement: ReadAccountStatement; validation: RequestValidation }): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'getStatement', async (ctx, request) => {
    const answered = await answerStatement(ctx, deps.statement, authenticatedAccountId(ctx), request.query());
    if (!answered) throw new HttpError(500, 'Account data is not available yet; retry shortly');
  });
  return router;
}

/** A page of an account's statement, as JSON or (Accept: text/csv) CSV, for its holder and for operators alike; false for an account the store lacks. */
export async function answerStatement(
  ctx: Context,
  statement: ReadAccountStatement,
  accountId: string,
  query: QueryParameters<'getStatement'>,
): Promise<boolean> {
  const afterRevision = query.cursor === undefined ? -1 : decodeStatementCursor(query.cursor);
  if (afterRevision === null)
    throw new HttpError(400, 'cursor is malformed: pass the nextCursor of a previous page as given');
  if (query.from !== undefined && query.to !== undefined && Date.parse(query.to) <= Date.parse(query.from))
    throw new HttpError(400, 'to must be after from');
  const page = await statement.execute(accountId, {
    from: query.from,
    to: query.to,
    afterRevision,
    limit: query.limit ?? DEFAULT_LIMIT,
  });
  if (page === null) return false;
  const nextCursor = page.nextAfterRevision === null ? null : encodeStatementCursor(page.nextAfterRevision);
  ctx.vary('Accept');
  if (ctx.accepts('application/json', 'text/csv') === 'text/csv') {
    ctx.type = 'text/csv; charset=utf-8';
    if (nextCursor !== null) ctx.set('X-Next-Cursor', nextCursor);
    ctx.body = statementCsv(page);
    return true;
  }
  ctx.body = { accountId: page.accountId, entries: page.entries, nextCursor, balances: page.balances };
  return true;
}

function encodeStatementCursor(revision: number): string {
  return Buffer.from(`s1:${revision}`).toString('base64url');
}

/** The revision a cursor names, or null for one this service did not give. */
function decodeStatementCursor(cursor: string): number | null {
  const match = /^s1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match === null ? null : Number(match[1]);
}
