import type { Knex } from 'knex';

const TABLE = 'account_data_keys';
/** Told the id of each account whose data key is destroyed, so every process drops it from memory. */
export const DATA_KEY_DESTROYED_CHANNEL = 'account_data_key_destroyed';

/**
 * Not a read model: no projection rebuilds it, and losing a row loses that account's personal data for good. It lives
 * in the read models' database, which every mode has, but outside the event store, so destroying a key is a real
 * deletion rather than one more event.
 */
const DATA_KEY_SCHEMA = `CREATE TABLE IF NOT EXISTS ${TABLE} (
  account_id text PRIMARY KEY,
  wrapped_key text,
  master_key_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  erased_at timestamptz,
  CHECK ((wrapped_key IS NULL) = (erased_at IS NOT NULL))
)`;

/** A live key as stored, or the record that the account's key was destroyed. */
export type StoredDataKey = { wrappedKey: string; masterKeyId: string } | 'erased';

export class PostgresDataKeyStore {
  constructor(private readonly db: Knex) {}

  async migrate(): Promise<void> {
    // Processes starting together on a new database would otherwise race inside CREATE TABLE IF NOT EXISTS.
    await this.db.transaction(async (trx) => {
      await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('account-data-keys-schema'))`);
      await trx.raw(DATA_KEY_SCHEMA);
    });
  }

  async find(accountId: string): Promise<StoredDataKey | null> {
    const row = await this.db(TABLE)
      .where('account_id', accountId)
      .first<{ wrapped_key: string | null; master_key_id: string | null } | undefined>('wrapped_key', 'master_key_id');
    if (row === undefined) return null;
    if (row.wrapped_key === null || row.master_key_id === null) return 'erased';
    return { wrappedKey: row.wrapped_key, masterKeyId: row.master_key_id };
  }

  /** Stores the key unless the account has one (or had one): what is stored afterwards is what counts. */
  async create(accountId: string, key: { wrappedKey: string; masterKeyId: string }): Promise<StoredDataKey> {
    await this.db.raw(
      `INSERT INTO ${TABLE} (account_id, wrapped_key, master_key_id) VALUES (?, ?, ?) ON CONFLICT (account_id) DO NOTHING`,
      [accountId, key.wrappedKey, key.masterKeyId],
    );
    return (await this.find(accountId)) ?? 'erased';
  }

  /**
   * Forgets the wrapped key (a tombstone stays, so nothing sealed later for the account becomes readable) and tells
   * every process. The old row version is vacuumed at once, so the database's own files drop it too; what WAL and
   * backups keep is in the README's data-protection section.
   */
  async destroy(accountId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO ${TABLE} (account_id, wrapped_key, master_key_id, erased_at) VALUES (?, NULL, NULL, now())
         ON CONFLICT (account_id) DO UPDATE
           SET wrapped_key = NULL, master_key_id = NULL, erased_at = coalesce(${TABLE}.erased_at, now())`,
        [accountId],
      );
      await trx.raw('SELECT pg_notify(?, ?)', [DATA_KEY_DESTROYED_CHANNEL, accountId]);
    });
    await this.db.raw(`VACUUM ${TABLE}`);
  }

  /** The master keys (by id) that wrap the live data keys. */
  async wrappingMasterKeyIds(): Promise<string[]> {
    const rows = await this.db(TABLE)
      .whereNotNull('master_key_id')
      .distinct<{ master_key_id: string }[]>('master_key_id');
    return rows.map((row) => row.master_key_id);
  }

  /** Live keys not wrapped by `masterKeyId`, a page at a time, for rotation. */
  async wrappedOtherwise(
    masterKeyId: string,
    limit: number,
  ): Promise<Array<{ accountId: string; wrappedKey: string; masterKeyId: string }>> {
    const rows = await this.db(TABLE)
      .whereNotNull('wrapped_key')
      .whereNot('master_key_id', masterKeyId)
      .orderBy('account_id')
      .limit(limit)
      .select<Array<{ account_id: string; wrapped_key: string; master_key_id: string }>>(
        'account_id',
        'wrapped_key',
        'master_key_id',
      );
    return rows.map((row) => ({
      accountId: row.account_id,
      wrappedKey: row.wrapped_key,
      masterKeyId: row.master_key_id,
    }));
  }

  /** Replaces a wrapping only if the row still holds the one read (an erasure in between wins). */
  async rewrap(accountId: string, from: string, to: { wrappedKey: string; masterKeyId: string }): Promise<void> {
    await this.db(TABLE)
      .where({ account_id: accountId, wrapped_key: from })
      .update({ wrapped_key: to.wrappedKey, master_key_id: to.masterKeyId });
  }
}
