import { type ConfigSection, integer, optional } from '../variable.js';

export interface AccountSettings {
  planCatalogFile: string | undefined;
  /** A command that folds this many account events stores the state it reached; 0 folds every account from its first event. */
  snapshotAfterEvents: number;
  /** How long an answer waits for the accounts read model to show what it charged or released (read-your-writes for /me). */
  readYourWritesWaitMs: number;
}

const PLAN_CATALOG_FILE = optional('PLAN_CATALOG_FILE', 'a JSON file replacing the plan catalog below');
const ACCOUNT_SNAPSHOT_AFTER_EVENTS = integer(
  'ACCOUNT_SNAPSHOT_AFTER_EVENTS',
  100,
  [0, 1_000_000],
  "a command that folds this many account events stores the state it reached, so the next ones fold only what follows; `0` folds every account from its first event. Fixes: submissions slowing down as an account's history grows",
);
const READ_YOUR_WRITES_WAIT_MS = integer(
  'READ_YOUR_WRITES_WAIT_MS',
  500,
  [0, 60_000],
  'how long an answer waits for the accounts read model (`GET /me`) to show what it charged or released: `POST /list-channel` before answering anyway, a poll of a finished job before reading it as still under way (see "read-your-writes" below)',
);

export const accountsSection: ConfigSection<AccountSettings> = {
  title: 'Accounts',
  variables: [PLAN_CATALOG_FILE, ACCOUNT_SNAPSHOT_AFTER_EVENTS, READ_YOUR_WRITES_WAIT_MS],
  load: (env) => ({
    planCatalogFile: PLAN_CATALOG_FILE.read(env),
    snapshotAfterEvents: ACCOUNT_SNAPSHOT_AFTER_EVENTS.read(env),
    readYourWritesWaitMs: READ_YOUR_WRITES_WAIT_MS.read(env),
  }),
};
