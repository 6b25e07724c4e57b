import { type DecisionsByType, decideByType } from '../decide-by-type.js';
import { NotFoundError } from '../errors.js';
import { assertCommandAllowed, closeAccount, eraseAccount, reactivateAccount, suspendAccount } from './access.js';
import { issueApiKey, revokeApiKey } from './api-key-decisions.js';
import type { AccountCommand, OpenAccount } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import { chargeBandwidth, releaseDownload, reserveDownload } from './download-admission.js';
import type { AccountEvent } from './events.js';
import { evolveAccount } from './evolve.js';
import { chargeLookup, releaseLookup, reserveLookup } from './lookup-admission.js';
import { openAccount } from './open-account.js';
import { changePlan, disableAddOn, enableAddOn, grantExtraUnits, scheduleCancellation } from './plan-decisions.js';
import { dueRenewals } from './renewal.js';
import type { AccountState } from './state.js';

/** The commands an open account takes, each decided on its state once the renewals due are applied. */
const ON_OPEN_ACCOUNT: DecisionsByType<Exclude<AccountCommand, OpenAccount>, OpenAccountContext, AccountEvent> = {
  ChangePlan: changePlan,
  ScheduleCancellation: scheduleCancellation,
  EnableAddOn: enableAddOn,
  DisableAddOn: disableAddOn,
  GrantExtraUnits: grantExtraUnits,
  IssueApiKey: issueApiKey,
  RevokeApiKey: revokeApiKey,
  SuspendAccount: suspendAccount,
  ReactivateAccount: reactivateAccount,
  CloseAccount: closeAccount,
  EraseAccount: eraseAccount,
  ReserveDownload: reserveDownload,
  ChargeBandwidth: chargeBandwidth,
  ReleaseDownload: releaseDownload,
  ReserveLookup: reserveLookup,
  ChargeLookup: chargeLookup,
  ReleaseLookup: releaseLookup,
};

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type === 'OpenAccount') return openAccount(command.data, state);
  if (state.status !== 'open' || state.accountId === null) throw new NotFoundError('Account not found');
  assertCommandAllowed(command, state);
  const now = Date.parse(command.data.now);
  const renewals = dueRenewals(state, now);
  const current = renewals.reduce(evolveAccount, state);
  const effect = decideByType(ON_OPEN_ACCOUNT, command, { state: current, accountId: current.accountId as string });
  // Renewals are recorded only along with a change, so a no-op command stays a no-op.
  return effect.length === 0 ? [] : [...renewals, ...effect];
}
