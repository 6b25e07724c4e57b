import { ADMIN_BASE, Api } from './api.js';
import { byId, show } from './dom.js';
import { OperatorAccountView } from './operator-account-view.js';
import { OperatorAccountsView } from './operator-accounts-view.js';
import { OperatorSystemView } from './operator-system-view.js';

/** Operator tokens start so; an account's key never does. */
export const isOperatorToken = (key: string): boolean => key.startsWith('vdo_');

/** The operator pages: the accounts (#/admin), one account (#/admin/accounts/<id>) and the system (#/admin/system). */
export class OperatorConsole {
  private api: Api | null = null;
  private readonly accounts: OperatorAccountsView;
  private readonly account: OperatorAccountView;
  private readonly system: OperatorSystemView;

  constructor(onError: (message: string) => void) {
    const api = () => {
      if (this.api === null) throw new Error('Not signed in');
      return this.api;
    };
    this.accounts = new OperatorAccountsView(api, onError);
    this.account = new OperatorAccountView(api, onError);
    this.system = new OperatorSystemView(api, onError);
  }

  get signedIn(): boolean {
    return this.api !== null;
  }

  /** Tries the token on the admin API; throws the API's refusal. */
  async signIn(token: string): Promise<void> {
    const candidate = new Api(token, ADMIN_BASE);
    await candidate.request('GET', '/system');
    this.api = candidate;
    show(byId('operator'), true);
  }

  signOut(): void {
    this.api = null;
    this.accounts.clear();
    this.account.clear();
    this.system.clear();
    show(byId('operator'), false);
  }

  route(hash: string): void {
    const account = /^#\/admin\/accounts\/(.+)$/.exec(hash);
    const page = account !== null ? 'account' : hash === '#/admin/system' ? 'system' : 'accounts';
    show(byId('op-accounts'), page === 'accounts');
    show(byId('op-account'), page === 'account');
    show(byId('op-system'), page === 'system');
    if (page === 'accounts') void this.accounts.reload();
    if (page === 'system') void this.system.reload();
    if (account !== null) void this.account.open(decodeURIComponent(account[1]));
  }
}
