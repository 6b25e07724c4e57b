import type { AccountAccess, AccountState } from '../../domain/account/state.js';
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
  erasedAt: string | null;
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

  /** From the read model, or from `folded`, the state a command just left the account in (exact at once). */
  async one(accountId: string, folded?: AccountState): Promise<OperatorAccountView | null> {
    const state = folded ?? (await this.readModel.get(accountId))?.state;
    if (state === undefined) return null;
    const [summary, keys] = await Promise.all([
      this.getAccount.ofState(accountId, state),
      this.listApiKeys.execute(accountId),
    ]);
    if (summary === null) return null;
    const access = state.access ?? null;
    return {
      accountId,
      ...summary,
      status: accessStatus(access),
      suspension:
        access?.status === 'suspended' ? { reason: access.reason, since: new Date(access.since).toISOString() } : null,
      closedAt: access?.status === 'closed' ? new Date(access.since).toISOString() : null,
      erasedAt:
        access?.status === 'closed' && access.erasedAt !== undefined ? new Date(access.erasedAt).toISOString() : null,
      addOns: [...state.addOns],
      pendingDownloads: state.pendingJobs.length,
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
