import type { AccountAccess } from '../../domain/account/state.js';
import type { AccountSummary, GetAccount } from '../accounts/get-account.js';
import type { ApiKeyMetadata, ListApiKeys } from '../accounts/list-api-keys.js';
import type { AccountReadModel, AccountSearch, AccountView } from '../ports/read-models.js';

export type AccountStatus = 'active' | 'suspended' | 'closed';

/** One account as an operator sees it: what its holder's `GET /me` shows, and its status, add-ons and keys. */
export interface OperatorAccountView extends AccountSummary {
  accountId: string;
  status: AccountStatus;
  suspension: { reason: string; since: string } | null;
  closedAt: string | null;
  addOns: string[];
  pendingDownloads: number;
  keys: ApiKeyMetadata[];
}

export interface OperatorAccountSummary {
  accountId: string;
  name: string;
  email: string;
  status: AccountStatus;
  plan: string | null;
  addOns: string[];
  usage: { download_count: number; bandwidth_mb: number };
}

/** The admin API's reads of accounts: one whole, or a search. */
export class ReadOperatorAccounts {
  constructor(
    private readonly readModel: AccountReadModel,
    private readonly getAccount: GetAccount,
    private readonly listApiKeys: ListApiKeys,
  ) {}

  async one(accountId: string): Promise<OperatorAccountView | null> {
    const [view, summary, keys] = await Promise.all([
      this.readModel.get(accountId),
      this.getAccount.execute(accountId),
      this.listApiKeys.execute(accountId),
    ]);
    if (view === null || summary === null) return null;
    const access = view.state.access ?? null;
    return {
      accountId,
      ...summary,
      status: accessStatus(access),
      suspension:
        access?.status === 'suspended' ? { reason: access.reason, since: new Date(access.since).toISOString() } : null,
      closedAt: access?.status === 'closed' ? new Date(access.since).toISOString() : null,
      addOns: [...view.state.addOns],
      pendingDownloads: view.state.pendingJobs.length,
      keys,
    };
  }

  async search(criteria: AccountSearch): Promise<{ accounts: OperatorAccountSummary[]; total: number }> {
    const { accounts, total } = await this.readModel.search(criteria);
    return { accounts: accounts.map(summarize), total };
  }
}

function summarize(view: AccountView): OperatorAccountSummary {
  return {
    accountId: view.accountId,
    name: view.name,
    email: view.email,
    status: accessStatus(view.state.access ?? null),
    plan: view.state.plan?.id ?? null,
    addOns: [...view.state.addOns],
    usage: { download_count: view.state.usage.download_count, bandwidth_mb: view.state.usage.bandwidth_mb },
  };
}

function accessStatus(access: AccountAccess | null): AccountStatus {
  return access === null ? 'active' : access.status;
}
