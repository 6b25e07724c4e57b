import type { ApiKeySecrets } from '../ports/api-key-secrets.js';
import type { KeyUsage } from '../ports/key-usage.js';
import type { AccountReadModel, ApiKeyOwner } from '../ports/read-models.js';

/** Finds the account an API key belongs to; revoked and unknown keys find none. */
export class Authenticate {
  constructor(
    /** Where requests look keys up: the read model, or a cache of it that revocation notices keep current. */
    private readonly keys: Pick<AccountReadModel, 'findActiveKey'>,
    private readonly secrets: ApiKeySecrets,
    /** The read model itself, for a check that must not wait on a revocation notice. */
    private readonly readModel: Pick<AccountReadModel, 'isKeyActive'>,
    private readonly usage: Pick<KeyUsage, 'noteUse'>,
  ) {}

  async execute(apiKey: string): Promise<ApiKeyOwner | null> {
    const owner = await this.keys.findActiveKey(this.secrets.hash(apiKey));
    if (owner !== null) this.usage.noteUse(owner.keyId);
    return owner;
  }

  /** Whether the key is still active now, as the read model says (a long response checks before its last word). */
  isStillActive(keyId: string): Promise<boolean> {
    return this.readModel.isKeyActive(keyId);
  }
}
