import type { Api } from './api.js';
import { byId, el, show } from './dom.js';
import { whileSubmitting } from './form-errors.js';
import { formatDate } from './format.js';

interface ApiKey {
  keyId: string;
  name: string | null;
  prefix: string;
  readOnly: boolean;
  issuedAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The account's API keys: issue one (shown once), see each with its last use, revoke one. */
export class KeysView {
  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
  ) {
    const form = byId<HTMLFormElement>('key-form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void whileSubmitting(form, () => this.issue(form));
    });
  }

  clear(): void {
    byId('key-list').replaceChildren();
    byId('new-key-value').textContent = '';
    show(byId('new-key'), false);
  }

  async reload(): Promise<void> {
    try {
      const { keys } = await this.api().request<{ keys: ApiKey[] }>('GET', '/me/keys');
      byId('key-list').replaceChildren(...keys.filter((key) => key.revokedAt === null).map((key) => this.row(key)));
    } catch (error) {
      this.onError(`The keys could not be listed: ${(error as Error).message}`);
    }
  }

  private async issue(form: HTMLFormElement): Promise<void> {
    byId('key-form-error').textContent = '';
    const name = byId<HTMLInputElement>('key-name').value.trim();
    const readOnly = byId<HTMLInputElement>('key-readOnly').checked;
    try {
      const issued = await this.api().request<{ apiKey: string }>('POST', '/me/keys', {
        ...(name === '' ? {} : { name }),
        readOnly,
      });
      byId('new-key-value').textContent = issued.apiKey;
      show(byId('new-key'), true);
      form.reset();
      await this.reload();
    } catch (error) {
      byId('key-form-error').textContent = (error as Error).message;
    }
  }

  private row(key: ApiKey): HTMLElement {
    const label = key.name ?? key.prefix;
    const used = key.lastUsedAt === null ? 'never used' : `last used ${formatDate(key.lastUsedAt)}`;
    const revoke = el('button', { type: 'button', 'aria-label': `Revoke ${label}` }, 'Revoke');
    revoke.addEventListener('click', () => {
      if (!window.confirm(`Revoke the key ${label}? Requests made with it will be refused.`)) return;
      this.api()
        .request('DELETE', `/me/keys/${encodeURIComponent(key.keyId)}`)
        .then(() => this.reload())
        .catch((error: Error) => this.onError(`The key could not be revoked: ${error.message}`));
    });
    return el(
      'li',
      { 'data-key': key.keyId },
      el('strong', {}, label),
      ` ${key.prefix}… · ${key.readOnly ? 'read-only' : 'full access'} · issued ${formatDate(key.issuedAt)} · ${used} `,
      revoke,
    );
  }
}
