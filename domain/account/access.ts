import { AccountRefusedError, InvalidTransitionError, RuleViolationError } from '../errors.js';
import type { AccountCommand, CloseAccount, EraseAccount, ReactivateAccount, SuspendAccount } from './commands.js';
import type { OpenAccountContext } from './decision-context.js';
import type { AccountEvent } from './events.js';
import type { AccountAccess, AccountState } from './state.js';

/** What a refused request is told. */
export function accessRefusal(access: AccountAccess): string {
  return access.status === 'closed'
    ? 'This account is closed'
    : `This account is suspended: ${access.reason}. Contact support to have it reactivated`;
}

/** Settling what is under way stays possible on any account, so no charge or release is ever lost. */
const SETTLEMENTS: ReadonlySet<AccountCommand['type']> = new Set([
  'ChargeBandwidth',
  'ReleaseDownload',
  'ChargeLookup',
  'ReleaseLookup',
  'RevokeApiKey',
]);

/** Operators may still change a suspended account's plan, add-ons and grants, and lift the suspension. */
const ALLOWED_WHILE_SUSPENDED: ReadonlySet<AccountCommand['type']> = new Set([
  ...SETTLEMENTS,
  'ChangePlan',
  'ScheduleCancellation',
  'EnableAddOn',
  'DisableAddOn',
  'GrantExtraUnits',
  'SuspendAccount',
  'ReactivateAccount',
  'CloseAccount',
]);

/**
 * Refuses what a suspended or closed account may not do: start anything new (reservations, keys: the holder is told
 * why, 403) or, closed, change at all (an operator's command: 409).
 */
export function assertCommandAllowed(command: AccountCommand, state: AccountState): void {
  const access = state.access ?? null;
  if (SETTLEMENTS.has(command.type) || command.type === 'CloseAccount') return;
  if (command.type === 'EraseAccount') {
    if (access?.status !== 'closed') throw new InvalidTransitionError('Close the account before erasing it');
    return;
  }
  if (access === null) return;
  if (access.status === 'suspended' && ALLOWED_WHILE_SUSPENDED.has(command.type)) return;
  if (ALLOWED_WHILE_SUSPENDED.has(command.type)) throw new InvalidTransitionError('This account is closed');
  throw new AccountRefusedError(accessRefusal(access));
}

export function suspendAccount(data: SuspendAccount['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  const reason = data.reason.trim();
  if (reason === '') throw new RuleViolationError('reason must not be empty');
  if (state.access?.status === 'suspended' && state.access.reason === reason) return [];
  return [{ type: 'AccountSuspended', data: { accountId, reason, suspendedAt: data.now } }];
}

export function reactivateAccount(
  data: ReactivateAccount['data'],
  { state, accountId }: OpenAccountContext,
): AccountEvent[] {
  if (state.access?.status !== 'suspended') return [];
  return [{ type: 'AccountReactivated', data: { accountId, reactivatedAt: data.now } }];
}

export function closeAccount(data: CloseAccount['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  if (state.access?.status === 'closed') return [];
  return [{ type: 'AccountClosed', data: { accountId, closedAt: data.now } }];
}

export function eraseAccount(data: EraseAccount['data'], { state, accountId }: OpenAccountContext): AccountEvent[] {
  if (state.access?.status !== 'closed' || state.access.erasedAt !== undefined) return [];
  return [{ type: 'AccountErased', data: { accountId, erasedAt: data.now } }];
}
