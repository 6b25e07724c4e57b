import type { Context } from 'koa';
import Router from '@koa/router';
import type { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { awaitKeyRefused, awaitKeyUsable } from '../../../application/accounts/await-key-usable.js';
import type { ListApiKeys } from '../../../application/accounts/list-api-keys.js';
import type { ApiKeySecrets } from '../../../application/ports/api-key-secrets.js';
import type { AccountReadModel } from '../../../application/ports/read-models.js';
import { authenticatedAccountId } from '../../http/authenticated-account.js';
import { operationRoute } from '../../http/operation-route.js';
import type { RequestValidation } from '../../http/request-validation.js';

export interface ApiKeyRouteDependencies {
  listApiKeys: ListApiKeys;
  administration: AccountAdministration;
  /** The key lookups requests are authenticated with: a new key's answer waits until it works, a revocation's until it does not. */
  keyLookups: Pick<AccountReadModel, 'findActiveKey'>;
  secrets: Pick<ApiKeySecrets, 'hash'>;
  validation: RequestValidation;
}

/** GET and POST /me/keys, DELETE /me/keys/{keyId}: the caller's own keys, through the same commands as the admin CLI. */
export function apiKeyRoutes(deps: ApiKeyRouteDependencies): Router {
  const router = new Router();
  operationRoute(router, deps.validation, 'listApiKeys', async (ctx) => {
    ctx.body = { keys: await deps.listApiKeys.execute(authenticatedAccountId(ctx)) };
  });
  // The audit trail names the key that asked.
  const asHolder = (ctx: Context) => deps.administration.by(`key:${String(ctx.state.keyId)}`);
  operationRoute(router, deps.validation, 'issueApiKey', async (ctx, request) => {
    const { name, readOnly } = request.body();
    const issued = await asHolder(ctx).issueKey(authenticatedAccountId(ctx), name, readOnly);
    await awaitKeyUsable(deps.keyLookups, deps.secrets, issued.apiKey);
    ctx.status = 201;
    ctx.body = { keyId: issued.keyId, name: name ?? null, readOnly: readOnly ?? false, apiKey: issued.apiKey };
  });
  operationRoute(router, deps.validation, 'revokeApiKey', async (ctx, request) => {
    // Another account's key is not in this account's stream: the command answers 404 as for an unknown id.
    const { keyId } = request.pathParameters('API key not found');
    const holder = asHolder(ctx);
    await holder.revokeKey(authenticatedAccountId(ctx), keyId);
    const revoked = holder.writtenState?.apiKeys.find((key) => key.keyId === keyId);
    if (revoked !== undefined) await awaitKeyRefused(deps.keyLookups, revoked.keyHash);
    ctx.status = 204;
  });
  return router;
}
