import type { Knex } from 'knex';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';
import type { WebhookSigningKeys } from '../../application/ports/webhook-signing-keys.js';

/**
 * Webhooks are signed with the account's newest key that is not revoked at
 * the time of the attempt, read from the `api_keys` read model (which keeps
 * each key's encryption) and decrypted with the master key. A receiver
 * rotating keys accepts both while the new one is rolled out.
 */
export class ReadModelSigningKeys implements WebhookSigningKeys {
  constructor(
    private readonly db: Knex,
    private readonly secrets: ApiKeySecrets,
  ) {}

  async currentKey(accountId: string): Promise<string | null> {
    const row = await this.db('api_keys')
      .where('account_id', accountId)
      .whereNull('revoked_at')
      .orderBy([
        { column: 'issued_at', order: 'desc' },
        { column: 'key_id', order: 'desc' },
      ])
      .first<{ encrypted_key: string } | undefined>('encrypted_key');
    return row === undefined ? null : this.secrets.decrypt(row.encrypted_key);
  }
}
