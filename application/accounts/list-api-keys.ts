import { streamName } from '../../domain/stream-name.js';
import type { EventStore } from '../ports/event-store.js';
import type { KeyUsage } from '../ports/key-usage.js';

/** A key as its holder may see it: never its secret, hash or encrypted copy. */
export interface ApiKeyMetadata {
  keyId: string;
  /** The holder's label, or null for a key issued without one. */
  name: string | null;
  /** The first characters of the key, as it was shown when issued. */
  prefix: string;
  readOnly: boolean;
  issuedAt: string;
  revokedAt: string | null;
  /** When a request last came with it (to the minute), or null. */
  lastUsedAt: string | null;
}

/** Every key an account was ever issued, oldest first, read from the account's stream, with its last use. */
export class ListApiKeys {
  constructor(
    private readonly store: EventStore,
    private readonly usage: Pick<KeyUsage, 'lastUsed'>,
  ) {}

  async execute(accountId: string): Promise<ApiKeyMetadata[]> {
    const keys = new Map<string, ApiKeyMetadata>();
    for (const { type, data } of await this.store.readStream(streamName('account', accountId))) {
      if (type === 'ApiKeyIssued')
        keys.set(String(data.keyId), {
          keyId: String(data.keyId),
          name: typeof data.name === 'string' ? data.name : null,
          prefix: String(data.keyPrefix),
          readOnly: data.readOnly === true,
          issuedAt: String(data.issuedAt),
          revokedAt: null,
          lastUsedAt: null,
        });
      const revoked = type === 'ApiKeyRevoked' ? keys.get(String(data.keyId)) : undefined;
      if (revoked !== undefined) revoked.revokedAt = String(data.revokedAt);
    }
    const lastUsed = await this.usage.lastUsed([...keys.keys()]);
    return [...keys.values()].map((key) => ({ ...key, lastUsedAt: lastUsed.get(key.keyId) ?? null }));
  }
}
