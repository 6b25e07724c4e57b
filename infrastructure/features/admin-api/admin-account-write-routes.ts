import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { awaitKeyUsable } from '../../../application/accounts/await-key-usable.js';
import type { EraseAccount } from '../../../application/accounts/erase-account.js';
import type { AdminAnswer, IdempotentAdminWrites } from '../../../application/operators/idempotent-admin-writes.js';
import { pollUntil } from '../../../application/poll-until.js';
import { operatorActor } from '../../../application/operators/operator-tokens.js';
import type { ReadOperatorAccounts } from '../../../application/operators/read-operator-accounts.js';
import type { ApiKeySecrets } from '../../../application/ports/api-key-secrets.js';
import type { AccountReadModel } from '../../../application/ports/read-models.js';
import type { AddOnId } from '../../../domain/account/plan.js';
import type { AccountState } from '../../../domain/account/state.js';
import { NotFoundError } from '../../../domain/errors.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';
import { authenticatedOperator } from './operator-authentication.js';

export interface AdminWriteRouteDependencies {
  administration: AccountAdministration;
  writes: IdempotentAdminWrites;
  accounts: ReadOperatorAccounts;
  readModel: Pick<AccountReadModel, 'findActiveKey' | 'get'>;
  secrets: Pick<ApiKeySecrets, 'hash'>;
  validation: RequestValidation;
  /** The erasure, run as the operator who asked for it. */
  eraseWith(admin: AccountAdministration): EraseAccount;
}

const ACCOUNT_NOT_FOUND = 'Account not found';
const ACCESS_VISIBLE_WAIT_MS = 10_000;

/** The admin API's writes to accounts, each under the operator's name and, with an Idempotency-Key, once. */
export function adminAccountWriteRoutes(deps: AdminWriteRouteDependencies): Router {
  const router = new Router();
  const { validation } = deps;
  const write = adminWrite(deps);
  operationRoute(router, validation, 'adminOpenAccount', async (ctx, request) => {
    const body = request.body();
    await write(ctx, request.headers()['Idempotency-Key'], body, async (admin) => {
      const opened = await admin.openAccount({
        name: body.name,
        email: body.email,
        planId: body.plan ?? 'free',
        addOns: body.addOns ?? [],
      });
      await awaitKeyUsable(deps.readModel, deps.secrets, opened.apiKey);
      return { status: 201, body: opened };
    });
  });
  operationRoute(router, validation, 'adminIssueKey', async (ctx, request) => {
    const { accountId } = request.pathParameters(ACCOUNT_NOT_FOUND);
    const { name, readOnly = false } = request.body();
    await write(ctx, request.headers()['Idempotency-Key'], { accountId, name, readOnly }, async (admin) => {
      const issued = await admin.issueKey(accountId, name, readOnly);
      await awaitKeyUsable(deps.readModel, deps.secrets, issued.apiKey);
      return { status: 201, body: { keyId: issued.keyId, name: name ?? null, readOnly, apiKey: issued.apiKey } };
    });
  });
  registerAccountChanges(router, deps, write);
  return router;
}

/** The writes to an existing account, each answered with the account as it is after the change. */
function registerAccountChanges(router: Router, deps: AdminWriteRouteDependencies, write: AdminWrite): void {
  const { validation } = deps;
  const change = (ctx: RouterContext, accountId: string, key: string | undefined, act: AccountChange) =>
    write(ctx, key, { path: ctx.path, method: ctx.method, body: ctx.request.body ?? null }, async (admin) => {
      await act(admin);
      await accessVisible(deps, accountId, admin.writtenState);
      return { status: 200, body: await accountAfter(deps, accountId, admin.writtenState) };
    });
  const key = (request: { headers(): { 'Idempotency-Key'?: string } }) => request.headers()['Idempotency-Key'];
  const id = (request: { pathParameters(message: string): { accountId: string } }) =>
    request.pathParameters(ACCOUNT_NOT_FOUND).accountId;

  operationRoute(router, validation, 'adminChangePlan', async (ctx, request) => {
    const accountId = id(request);
    const { plan } = request.body();
    await change(ctx, accountId, key(request), (admin) => admin.changePlan(accountId, plan));
  });
  operationRoute(router, validation, 'adminScheduleCancellation', async (ctx, request) => {
    const accountId = id(request);
    await change(ctx, accountId, key(request), (admin) => admin.scheduleCancellation(accountId));
  });
  for (const [operationId, enabled] of [
    ['adminEnableAddOn', true],
    ['adminDisableAddOn', false],
  ] as const)
    operationRoute(router, validation, operationId, async (ctx, request) => {
      const { accountId, addOn } = request.pathParameters(ACCOUNT_NOT_FOUND);
      await change(ctx, accountId, key(request), (admin) => admin.setAddOn(accountId, addOn as AddOnId, enabled));
    });
  operationRoute(router, validation, 'adminGrantUnits', async (ctx, request) => {
    const accountId = id(request);
    const { feature, units, reason } = request.body();
    await change(ctx, accountId, key(request), (admin) => admin.grantExtraUnits(accountId, feature, units, reason));
  });
  operationRoute(router, validation, 'adminRevokeKey', async (ctx, request) => {
    const { accountId, keyId } = request.pathParameters(ACCOUNT_NOT_FOUND);
    await change(ctx, accountId, key(request), (admin) => admin.revokeKey(accountId, keyId));
  });
  operationRoute(router, validation, 'adminSuspendAccount', async (ctx, request) => {
    const accountId = id(request);
    const { reason } = request.body();
    await change(ctx, accountId, key(request), (admin) => admin.suspend(accountId, reason));
  });
  operationRoute(router, validation, 'adminReactivateAccount', async (ctx, request) => {
    const accountId = id(request);
    await change(ctx, accountId, key(request), (admin) => admin.reactivate(accountId));
  });
  operationRoute(router, validation, 'adminCloseAccount', async (ctx, request) => {
    const accountId = id(request);
    // The body is optional (the document says so): a closure without one erases nothing.
    const erase = request.body().erase === true;
    await change(ctx, accountId, key(request), async (admin) => {
      if (erase) await deps.eraseWith(admin).execute(accountId);
      else await admin.close(accountId);
    });
  });
}

type AccountChange = (admin: AccountAdministration) => Promise<void>;
type AdminWrite = ReturnType<typeof adminWrite>;

/** Runs `act` as the request's operator, once per Idempotency-Key, and answers what it (or its first run) answered. */
function adminWrite(deps: AdminWriteRouteDependencies) {
  return async (
    ctx: RouterContext,
    idempotencyKey: string | undefined,
    given: unknown,
    act: (admin: AccountAdministration) => Promise<AdminAnswer>,
  ): Promise<void> => {
    const operator = authenticatedOperator(ctx);
    const requestHash = createHash('sha256')
      .update(`${ctx.method} ${ctx.path} ${JSON.stringify(given)}`)
      .digest('hex');
    const answer = await deps.writes.run(operator, { idempotencyKey, requestHash }, (seed) =>
      act(deps.administration.by(operatorActor(operator), seed)),
    );
    if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = answer.status;
    ctx.body = answer.body;
  };
}

/**
 * A change to who may call (a suspension, reactivation, closure or revoked key) is answered once key lookups see it
 * (the accounts read model), so the next request of the account is already answered accordingly; API processes drop
 * their cached lookups on the notice the same commit sends. Bounded, as a projector may be stopped.
 */
async function accessVisible(deps: AdminWriteRouteDependencies, accountId: string, state: AccountState | null) {
  if (state === null) return;
  const written = whoMayCall(state);
  await pollUntil(
    () => deps.readModel.get(accountId),
    (view) => view !== null && whoMayCall(view.state) === written,
    ACCESS_VISIBLE_WAIT_MS,
  );
}

/** Compared field by field: the read model keeps the state as jsonb, which orders an object's keys its own way. */
function whoMayCall(state: AccountState): string {
  const access = state.access ?? null;
  return JSON.stringify([
    access === null ? null : [access.status, access.status === 'suspended' ? access.reason : null, access.since],
    state.apiKeys.map((key) => [key.keyId, key.revoked]),
  ]);
}

/** The account as the change left it: from the state the command folded, so the answer shows the change at once. */
async function accountAfter(deps: AdminWriteRouteDependencies, accountId: string, state: AccountState | null) {
  const account = await deps.accounts.one(accountId, state ?? undefined);
  if (account === null) throw new NotFoundError(ACCOUNT_NOT_FOUND);
  return account;
}
