import type { Knex } from 'knex';
import type { PendingDownloadAccounts } from '../../application/ports/pending-download-accounts.js';

/** From the accounts read model's folded state. */
export class PostgresPendingDownloadAccounts implements PendingDownloadAccounts {
  constructor(private readonly db: Knex) {}

  async accountIds(): Promise<string[]> {
    const rows = await this.db('accounts')
      .whereRaw(`jsonb_array_length(state->'pendingJobs') > 0`)
      .select<Array<{ account_id: string }>>('account_id');
    return rows.map((row) => row.account_id);
  }
}
