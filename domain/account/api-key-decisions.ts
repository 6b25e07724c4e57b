import { NotFoundError } from '../errors.js';
import type { IssueApiKey, RevokeApiKey } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';

/** Issuing a key id already issued does nothing, so a retried request issues it once. */
export function issueApiKey(data: IssueApiKey['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const { keyId, keyPrefix, keyHash, encryptedKey, now } = data;
  if (state.apiKeys.some((key) => key.keyId === keyId)) return [];
  return [{ type: 'ApiKeyIssued', data: { accountId, keyId, keyPrefix, keyHash, encryptedKey, issuedAt: now } }];
}

export function revokeApiKey(data: RevokeApiKey['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const key = state.apiKeys.find((candidate) => candidate.keyId === data.keyId);
  if (key === undefined) throw new NotFoundError(`API key ${data.keyId} not found`);
  if (key.revoked) return [];
  return [{ type: 'ApiKeyRevoked', data: { accountId, keyId: key.keyId, revokedAt: data.now } }];
}
