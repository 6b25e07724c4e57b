import { pollUntil } from '../poll-until.js';
import type { ApiKeySecrets } from '../ports/api-key-secrets.js';
import type { AccountReadModel } from '../ports/read-models.js';

/** A new key works once the projector has recorded it: waits for that briefly, so a key handed out works at once. */
export async function awaitKeyUsable(
  readModel: Pick<AccountReadModel, 'findActiveKey'>,
  secrets: Pick<ApiKeySecrets, 'hash'>,
  key: string,
  waitMs = 10_000,
): Promise<boolean> {
  const keyHash = secrets.hash(key);
  return (
    (await pollUntil(
      () => readModel.findActiveKey(keyHash),
      (owner) => owner !== null,
      waitMs,
    )) !== null
  );
}

/** A revoked key stops working once key lookups drop it: waits for that briefly, so a revocation answered holds at once. */
export async function awaitKeyRefused(
  lookups: Pick<AccountReadModel, 'findActiveKey'>,
  keyHash: string,
  waitMs = 10_000,
): Promise<boolean> {
  return (
    (await pollUntil(
      () => lookups.findActiveKey(keyHash),
      (owner) => owner === null,
      waitMs,
    )) === null
  );
}
