import type { Decider } from '../decider.js';
import type { AccountCommand } from './commands.js';
import { decideAccount } from './decide.js';
import type { AccountEvent } from './events.js';
import { evolveAccount } from './evolve.js';
import { type AccountState, initialAccountState } from './state.js';

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  decide: decideAccount,
  evolve: evolveAccount,
  initialState: initialAccountState,
};

export const ACCOUNT_CATEGORY = 'account';
