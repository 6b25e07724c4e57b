import { balanceItem } from './account-view.js';
import type { Api } from './api.js';
import type { FeatureBalance } from './api-types.js';
import { byId, el } from './dom.js';
import { formatDate } from './format.js';

interface OperatorAccount {
  accountId: string;
  name: string;
  email: string;
  status: string;
  erasedAt: string | null;
  suspension: { reason: string; since: string } | null;
  plan: { id: string; renewsAt: number | null; canceledAt: number | null };
  addOns: string[];
  balances: Record<string, FeatureBalance>;
  pendingDownloads: number;
  keys: Array<{
    keyId: string;
    name: string | null;
    prefix: string;
    readOnly: boolean;
    revokedAt: string | null;
    lastUsedAt: string | null;
  }>;
}

const ADD_ONS = ['client_download', 'channel_list'];

/** One account for an operator: plan, balances as bars, add-ons, keys with their last use, jobs, statement, and the writes. */
export class OperatorAccountView {
  private accountId: string | null = null;

  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
  ) {
    this.action('op-change-plan', 'Change the plan?', () => ({
      method: 'POST',
      path: 'plan',
      body: { plan: byId<HTMLSelectElement>('op-new-plan').value },
    }));
    this.action('op-grant', 'Grant these units?', () => ({
      method: 'POST',
      path: 'grants',
      body: {
        feature: byId<HTMLSelectElement>('op-grant-feature').value,
        units: Number(byId<HTMLInputElement>('op-grant-units').value),
      },
    }));
    this.action('op-suspend', 'Suspend this account? Its keys will be refused.', () => ({
      method: 'POST',
      path: 'suspension',
      body: { reason: byId<HTMLInputElement>('op-suspend-reason').value.trim() },
    }));
    this.action('op-reactivate', 'Reactivate this account?', () => ({ method: 'DELETE', path: 'suspension' }));
    this.action('op-close', 'Close this account for good? Nothing reopens it.', () => ({
      method: 'POST',
      path: 'closure',
    }));
    this.action(
      'op-erase',
      'Close this account and erase its personal data? Its name, email, URLs and files are gone for good; its amounts stay.',
      () => ({ method: 'POST', path: 'closure', body: { erase: true } }),
    );
  }

  clear(): void {
    this.accountId = null;
    for (const id of ['op-balances', 'op-keys', 'op-jobs', 'op-statement', 'op-add-ons']) byId(id).replaceChildren();
    byId('op-account-summary').textContent = '';
  }

  async open(accountId: string): Promise<void> {
    this.clear();
    this.accountId = accountId;
    byId('op-account-error').textContent = '';
    try {
      const path = `/accounts/${encodeURIComponent(accountId)}`;
      const [account, jobs, statement] = await Promise.all([
        this.api().request<OperatorAccount>('GET', path),
        this.api().request<{ jobs: Array<{ jobId: string; status: string; title: string; createdAt: string }> }>(
          'GET',
          `${path}/jobs?limit=20`,
        ),
        this.api().request<{ entries: Array<{ kind: string; at: string }> }>('GET', `${path}/statement?limit=50`),
      ]);
      this.show(account);
      byId('op-jobs').replaceChildren(
        ...jobs.jobs.map((job) => el('li', {}, `${job.title} · ${job.status} · ${formatDate(job.createdAt)}`)),
      );
      byId('op-statement').replaceChildren(
        ...statement.entries.map((entry) => el('li', {}, `${formatDate(entry.at)} · ${entry.kind}`)),
      );
    } catch (error) {
      this.onError(`The account could not be read: ${(error as Error).message}`);
    }
  }

  private show(account: OperatorAccount): void {
    byId('op-account-title').textContent = account.name;
    const suspension = account.suspension === null ? '' : ` (${account.suspension.reason})`;
    const erased = account.erasedAt === null ? '' : ` · erased ${formatDate(account.erasedAt)}`;
    byId('op-account-summary').textContent =
      `${account.email} · plan ${account.plan.id} · ${account.status}${suspension}${erased} · ${account.pendingDownloads} pending`;
    byId('op-balances').replaceChildren(
      ...Object.entries(account.balances).map(([feature, balance]) => balanceItem(feature, balance)),
    );
    byId('op-keys').replaceChildren(
      ...account.keys.map((key) =>
        el(
          'li',
          {},
          `${key.name ?? key.prefix} · ${key.readOnly ? 'read-only' : 'full access'} · ${key.revokedAt === null ? 'active' : 'revoked'} · ${key.lastUsedAt === null ? 'never used' : `last used ${formatDate(key.lastUsedAt)}`}`,
        ),
      ),
    );
    byId('op-add-ons').replaceChildren(
      ...ADD_ONS.map((addOn) => {
        const enabled = account.addOns.includes(addOn);
        const button = el('button', { type: 'button' }, `${enabled ? 'Disable' : 'Enable'} ${addOn}`);
        button.addEventListener(
          'click',
          () =>
            void this.write(`${enabled ? 'Disable' : 'Enable'} ${addOn}?`, {
              method: enabled ? 'DELETE' : 'POST',
              path: `add-ons/${addOn}`,
            }),
        );
        return button;
      }),
    );
  }

  private action(buttonId: string, question: string, request: () => WriteRequest): void {
    byId(buttonId).addEventListener('click', () => void this.write(question, request()));
  }

  /** Asks first; then writes, and shows the account as the answer gives it, or the API's refusal. */
  private async write(question: string, request: WriteRequest): Promise<void> {
    if (this.accountId === null || !window.confirm(question)) return;
    byId('op-account-error').textContent = '';
    try {
      const path = `/accounts/${encodeURIComponent(this.accountId)}/${request.path}`;
      this.show(await this.api().request<OperatorAccount>(request.method, path, request.body));
    } catch (error) {
      byId('op-account-error').textContent = (error as Error).message;
    }
  }
}

interface WriteRequest {
  method: 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}
