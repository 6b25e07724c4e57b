import type { MasterKeys } from './master-keys.js';
import type { PostgresDataKeyStore } from './postgres-data-key-store.js';

const PAGE = 500;

/**
 * Wraps every data key again under the current master key, so the previous one can be dropped from the configuration.
 * The events are untouched: they are sealed by the data keys, which stay the same.
 */
export async function rotateMasterKey(
  store: PostgresDataKeyStore,
  masterKeys: MasterKeys,
): Promise<{ rewrapped: number }> {
  let rewrapped = 0;
  for (;;) {
    const rows = await store.wrappedOtherwise(masterKeys.current.id, PAGE);
    if (rows.length === 0) return { rewrapped };
    for (const row of rows) {
      const dataKey = masterKeys.unwrap(row.wrappedKey, row.masterKeyId, row.accountId);
      await store.rewrap(row.accountId, row.wrappedKey, masterKeys.wrap(dataKey, row.accountId));
      rewrapped += 1;
    }
  }
}
