import { ConfigError } from '../config/config-error.js';
import type { Storage } from '../database/open-storage.js';
import { SealingEventStore } from '../event-store/sealing/sealing-event-store.js';
import { AccountDataKeys } from '../security/personal-data/account-data-keys.js';
import { MasterKeys, masterKey } from '../security/personal-data/master-keys.js';
import type { PersonalDataSealing } from '../security/personal-data/personal-data-sealing.js';
import { DATA_KEY_DESTROYED_CHANNEL, PostgresDataKeyStore } from '../security/personal-data/postgres-data-key-store.js';

/**
 * The storage with its event store behind the sealing decorator, which everything resolved from the container then
 * uses; the data keys' table is made, and this process hears of every key destroyed (anywhere) from now on.
 */
export async function sealPersonalData(
  storage: Storage,
  master: Buffer,
  previousMasters: readonly Buffer[],
  eventsRewritable: boolean,
): Promise<{ storage: Storage; sealing: PersonalDataSealing }> {
  const keyStore = new PostgresDataKeyStore(storage.database);
  await keyStore.migrate();
  const masterKeys = new MasterKeys(masterKey(master), previousMasters.map(masterKey));
  await refuseUnknownMasterKeys(keyStore, masterKeys);
  const keys = new AccountDataKeys(keyStore, masterKeys);
  const destructions = storage.listen(DATA_KEY_DESTROYED_CHANNEL, {
    onNotification: (accountId) => keys.destroyed(accountId),
    onListening: () => keys.trust(),
    onLost: () => keys.distrust(),
  });
  await destructions.start();
  const sealed: Storage = {
    ...storage,
    eventStore: new SealingEventStore(storage.eventStore, keys),
    async close() {
      await destructions.close();
      await storage.close();
    },
  };
  return { storage: sealed, sealing: { keys, keyStore, masterKeys, eventsRewritable } };
}

/**
 * A process configured with another master key than the one that wrapped the data keys could open no personal field:
 * it stops at start-up, saying so, instead of failing at every read.
 */
async function refuseUnknownMasterKeys(keyStore: PostgresDataKeyStore, masterKeys: MasterKeys): Promise<void> {
  const unknown = (await keyStore.wrappingMasterKeyIds()).filter((id) => !masterKeys.knows(id));
  if (unknown.length > 0)
    throw new ConfigError(
      'MASTER_KEY',
      `does not open the accounts' data keys: they are wrapped by master key ${unknown.join(', ')}, which neither it nor PREVIOUS_MASTER_KEYS holds. Every process must use the same MASTER_KEY (see "Data protection" in the README)`,
    );
}
