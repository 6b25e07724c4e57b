import type { Knex } from 'knex';
import type { AccountReadModel, AccountSearch, AccountView, ApiKeyOwner } from '../../application/ports/read-models.js';
import type { AccountAccess } from '../../domain/account/state.js';
import type { AccountState } from '../../domain/account/state.js';
import type { PreparedReads } from './prepared-reads.js';

/** An account's status from its folded state: no `access` (or null) is active. */
const ACCESS_STATUS_SQL = `coalesce(state->'access'->>'status', 'active') = ?`;
const USAGE_ORDER_SQL = `(state->'usage'->>'bandwidth_mb')::numeric DESC NULLS LAST, account_id`;

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

  async search(criteria: AccountSearch): Promise<{ accounts: AccountView[]; total: number }> {
    const matching = this.db<AccountRow>('accounts').whereNotNull('plan_id');
    if (criteria.text !== undefined) {
      const pattern = `%${criteria.text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      matching.where((where) => where.whereILike('name', pattern).orWhereILike('email', pattern));
    }
    if (criteria.planId !== undefined) matching.where('plan_id', criteria.planId);
    if (criteria.status !== undefined) matching.whereRaw(ACCESS_STATUS_SQL, [criteria.status]);
    const [rows, [{ count }]] = await Promise.all([
      matching
        .clone()
        .orderByRaw(criteria.sort === 'usage' ? USAGE_ORDER_SQL : 'name, account_id')
        .offset(criteria.offset)
        .limit(criteria.limit),
      matching.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return { accounts: rows.map(toView), total: Number(count) };
  }

  async findActiveKey(keyHash: string): Promise<ApiKeyOwner | null> {
    // The plan comes along in the same round trip, so rate limiting needs no query of its own.
    const [row] = await this.reads.query<{
      account_id: string;
      key_id: string;
      plan_id: string | null;
      access: AccountAccess | null;
      read_only: boolean;
    }>(
      'active-api-key-by-hash',
      "SELECT k.account_id, k.key_id, k.read_only, a.plan_id, a.state->'access' AS access FROM api_keys k LEFT JOIN accounts a ON a.account_id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL",
      [keyHash],
    );
    return row === undefined
      ? null
      : {
          accountId: row.account_id,
          keyId: row.key_id,
          planId: row.plan_id,
          access: row.access ?? null,
          readOnly: row.read_only === true,
        };
  }

  async isKeyActive(keyId: string): Promise<boolean> {
    const row = await this.db('api_keys as k')
      .join('accounts as a', 'a.account_id', 'k.account_id')
      .where('k.key_id', keyId)
      .whereNull('k.revoked_at')
      .whereRaw(`coalesce(a.state->'access', 'null'::jsonb) = 'null'::jsonb`)
      .first('k.key_id');
    return row !== undefined;
  }
}

function toView(row: AccountRow): AccountView {
  return { accountId: row.account_id, name: row.name, email: row.email, state: row.state };
}
