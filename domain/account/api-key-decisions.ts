import { NotFoundError, RuleViolationError } from '../errors.js';
import type { IssueApiKey, RevokeApiKey } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';

/** Active keys an account may hold at once: enough for every environment, few enough that a leaked key cannot mint a horde. */
const MAX_ACTIVE_API_KEYS = 20;

/** Issuing a key id already issued does nothing, so a retried request issues it once. */
export function issueApiKey(data: IssueApiKey['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const { keyId, keyPrefix, keyHash, encryptedKey, now, name, readOnly } = data;
  if (state.apiKeys.some((key) => key.keyId === keyId)) return [];
  if (state.apiKeys.filter((key) => !key.revoked).length >= MAX_ACTIVE_API_KEYS)
    throw new RuleViolationError(
      `An account holds at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one before issuing another`,
    );
  return [
    {
      type: 'ApiKeyIssued',
      data: {
        accountId,
        keyId,
        keyPrefix,
        keyHash,
        encryptedKey,
        issuedAt: now,
        ...(name === undefined ? {} : { name }),
        ...(readOnly === true ? { readOnly: true as const } : {}),
      },
    },
  ];
}

export function revokeApiKey(data: RevokeApiKey['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const key = state.apiKeys.find((candidate) => candidate.keyId === data.keyId);
  if (key === undefined) throw new NotFoundError(`API key ${data.keyId} not found`);
  if (key.revoked) return [];
  return [{ type: 'ApiKeyRevoked', data: { accountId, keyId: key.keyId, revokedAt: data.now } }];
}
