import type { AccountState } from './state.js';

/** What a command to an open account is decided on: its state with renewals due applied, and its id. */
export interface OpenAccountContext {
  readonly state: AccountState;
  readonly accountId: string;
}
