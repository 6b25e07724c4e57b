import type { Knex } from 'knex';
import type { AccountReadModel, AccountView, ApiKeyOwner } from '../../application/ports/read-models.js';
import type { AccountState } from '../../domain/account/state.js';
import type { PreparedReads } from './prepared-reads.js';

interface AccountRow {
  account_id: string;
  name: string;
  email: string;
  state: AccountState;
}

export class PostgresAccountReadModel implements AccountReadModel {
  constructor(
    private readonly db: Knex,
    private readonly reads: PreparedReads,
  ) {}

  async get(accountId: string): Promise<AccountView | null> {
    const row = await this.db<AccountRow>('accounts').where('account_id', accountId).first();
    return row === undefined ? null : toView(row);
  }

  async list(): Promise<AccountView[]> {
    const rows = await this.db<AccountRow>('accounts').orderBy('name');
    return rows.map(toView);
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    // The plan comes along in the same round trip, so rate limiting needs no query of its own.
    const [row] = await this.reads.query<{ account_id: string; key_id: string; plan_id: string | null }>(
      'active-api-key-by-hash',
      'SELECT k.account_id, k.key_id, a.plan_id FROM api_keys k LEFT JOIN accounts a ON a.account_id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL',
      [keyHash],
    );
    return row === undefined ? null : { accountId: row.account_id, keyId: row.key_id, planId: row.plan_id };
  }

  async isKeyActive(keyId: string): Promise<boolean> {
    const row = await this.db('api_keys').where('key_id', keyId).whereNull('revoked_at').first('key_id');
    return row !== undefined;
  }
}

function toView(row: AccountRow): AccountView {
  return { accountId: row.account_id, name: row.name, email: row.email, state: row.state };
}
