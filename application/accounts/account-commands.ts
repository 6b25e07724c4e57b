import type { AccountCommand } from '../../domain/account/commands.js';
import type { AccountEvent } from '../../domain/account/events.js';
import type { AccountState } from '../../domain/account/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of `account-<id>` streams, as the use cases share it. */
export type AccountCommandHandler = CommandHandler<AccountCommand, AccountEvent, AccountState>;
