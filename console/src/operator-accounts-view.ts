import type { Api } from './api.js';
import { byId, el } from './dom.js';
import { formatCount } from './format.js';

interface AccountSummary {
  accountId: string;
  name: string;
  email: string;
  plan: string | null;
  status: string;
  usage: { bandwidth_mb: number };
}

/** The operator's accounts table, searched by name or email, plan and status; each row opens the account's page. */
export class OperatorAccountsView {
  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
  ) {
    byId<HTMLFormElement>('op-search').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.reload();
    });
  }

  clear(): void {
    byId('op-account-rows').replaceChildren();
    byId('op-accounts-total').textContent = '';
  }

  async reload(): Promise<void> {
    const query = new URLSearchParams({ limit: '100' });
    for (const name of ['q', 'plan', 'status']) {
      const value = byId<HTMLInputElement>(`op-${name}`).value.trim();
      if (value !== '') query.set(name, value);
    }
    try {
      const page = await this.api().request<{ accounts: AccountSummary[]; total: number }>('GET', `/accounts?${query}`);
      byId('op-account-rows').replaceChildren(...page.accounts.map(row));
      byId('op-accounts-total').textContent = `${formatCount(page.total)} account${page.total === 1 ? '' : 's'}`;
    } catch (error) {
      this.onError(`The accounts could not be listed: ${(error as Error).message}`);
    }
  }
}

function row(account: AccountSummary): HTMLElement {
  return el(
    'tr',
    { 'data-account': account.accountId },
    el('td', {}, el('a', { href: `#/admin/accounts/${encodeURIComponent(account.accountId)}` }, account.name)),
    el('td', {}, account.email),
    el('td', {}, account.plan ?? ''),
    el('td', {}, account.status),
    el('td', {}, formatCount(account.usage.bandwidth_mb)),
  );
}
