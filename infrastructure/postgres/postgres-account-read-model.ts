import type { Knex } from 'knex';
import type { AccountReadModel, AccountView, ApiKeyOwner } from '../../application/ports/read-models.js';
import type { AccountState } from '../../domain/account/state.js';
import { preparedQuery } from './prepared-query.js';

interface AccountRow {
  account_id: string;
  name: string;
  email: string;
  state: AccountState;
}

export class PostgresAccountReadModel implements AccountReadModel {
  constructor(private readonly db: Knex) {}

  async get(accountId: string): Promise<AccountView | null> {
    const row = await this.db<AccountRow>('accounts').where('account_id', accountId).first();
    return row === undefined ? null : toView(row);
  }

  async list(): Promise<AccountView[]> {
    const rows = await this.db<AccountRow>('accounts').orderBy('name');
    return rows.map(toView);
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    const [row] = await preparedQuery<{ account_id: string; key_id: string }>(
      this.db,
      'active-api-key-by-hash',
      'SELECT account_id, key_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return row === undefined ? null : { accountId: row.account_id, keyId: row.key_id };
  }
}

function toView(row: AccountRow): AccountView {
  return { accountId: row.account_id, name: row.name, email: row.email, state: row.state };
}
