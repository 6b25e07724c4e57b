import pg from 'pg';

/**
 * The backend pids of the sessions of this database holding the advisory lock taken as
 * `pg_try_advisory_lock(hashtext(key))`: pg_locks shows its 64-bit key split in two halves.
 */
export async function advisoryLockHolders(databaseUrl: string, key: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `WITH lock_key AS (SELECT hashtext($1)::bigint AS value)
       SELECT l.pid FROM pg_locks l, lock_key
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.database = (
                SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = ((lock_key.value >> 32) & 4294967295)::oid
          AND l.objid = (lock_key.value & 4294967295)::oid`,
      [key],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}
