import type { Knex } from 'knex';
import type { PendingLookupAccounts } from '../../application/ports/pending-lookup-accounts.js';

/** From the accounts read model's folded state; accounts folded before lookups existed have no such list. */
export class PostgresPendingLookupAccounts implements PendingLookupAccounts {
  constructor(private readonly db: Knex) {}

  async accountIds(): Promise<string[]> {
    const rows = await this.db('accounts')
      .whereRaw(`jsonb_array_length(coalesce(state->'pendingLookups', '[]'::jsonb)) > 0`)
      .select<Array<{ account_id: string }>>('account_id');
    return rows.map((row) => row.account_id);
  }
}
