import type { ApiKeySecrets } from '../ports/api-key-secrets.js';
import type { AccountReadModel, ApiKeyOwner } from '../ports/read-models.js';

/** Finds the account an API key belongs to; revoked and unknown keys find none. */
export class Authenticate {
  constructor(
    private readonly readModel: Pick<AccountReadModel, 'findActiveKey'>,
    private readonly secrets: ApiKeySecrets,
  ) {}

  execute(apiKey: string): Promise<ApiKeyOwner | null> {
    return this.readModel.findActiveKey(this.secrets.hash(apiKey));
  }
}
