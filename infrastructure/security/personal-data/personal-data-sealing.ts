import type { AccountDataKeys } from './account-data-keys.js';
import type { MasterKeys } from './master-keys.js';
import type { PostgresDataKeyStore } from './postgres-data-key-store.js';

/** What erasure and the key commands need of the sealing in place. */
export interface PersonalDataSealing {
  keys: AccountDataKeys;
  keyStore: PostgresDataKeyStore;
  masterKeys: MasterKeys;
  /** False with EventStoreDB, whose events cannot be rewritten: what they hold in plain text stays there. */
  eventsRewritable: boolean;
}
