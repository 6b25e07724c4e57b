import { section } from '../section.js';
import { integer, optional } from '../variable.js';

export const accountsSection = section('Accounts', {
  planCatalogFile: optional('PLAN_CATALOG_FILE', 'a JSON file replacing the plan catalog below'),
  /** A command that folds this many account events stores the state it reached; 0 folds every account from its first event. */
  snapshotAfterEvents: integer(
    'ACCOUNT_SNAPSHOT_AFTER_EVENTS',
    100,
    [0, 1_000_000],
    "a command that folds this many account events stores the state it reached, so the next ones fold only what follows; `0` folds every account from its first event. Fixes: submissions slowing down as an account's history grows",
  ),
  /** How long an answer waits for the accounts read model to show what it charged or released (read-your-writes for /me). */
  readYourWritesWaitMs: integer(
    'READ_YOUR_WRITES_WAIT_MS',
    500,
    [0, 60_000],
    'how long an answer waits for the accounts read model (`GET /me`) to show what it charged or released: `POST /list-channel` before answering anyway, a poll of a finished job before reading it as still under way (see "read-your-writes" below)',
  ),
});
