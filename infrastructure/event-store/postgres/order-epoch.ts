import type pg from 'pg';

const RESTORE_COMMAND = 'npm run restore-event-order';

/**
 * The store's newest transaction ids are at or beyond the ids this server
 * hands out next (typical after pg_dump/pg_restore, a logical-replication
 * switchover or pg_resetwal): new events would sort before events already
 * read, and readers would skip them.
 */
export class TransactionIdsAheadError extends Error {
  constructor(
    readonly newestStored: string,
    readonly serverNext: string,
  ) {
    super(
      `The event store holds transaction id ${newestStored} but this server's next one is ${serverNext}: ` +
        `events appended now would sort before stored ones and be skipped by readers. Run \`${RESTORE_COMMAND}\` once, then start again.`,
    );
    this.name = 'TransactionIdsAheadError';
  }
}

/** Refuses (TransactionIdsAheadError) when ids stored in the current epoch are not all older than what this server assigns next. */
export async function assertStoredTransactionIdsBehindServer(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ newest: string | null; next: string; ahead: boolean | null }>(
    `SELECT newest::text, next::text, newest >= next AS ahead
     FROM (SELECT max(transaction_id) AS newest FROM es_events WHERE epoch = (SELECT epoch FROM es_order_epoch)) AS stored,
          (SELECT pg_snapshot_xmax(pg_current_snapshot()) AS next) AS server`,
  );
  const [row] = rows;
  if (row.ahead === true) throw new TransactionIdsAheadError(row.newest as string, row.next);
}

/**
 * Starts a new order epoch: every event appended from now on sorts after
 * every stored one, whatever its transaction id, and stored checkpoints stay
 * valid because nothing stored is rewritten. Returns the new epoch.
 */
export async function startNewOrderEpoch(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ epoch: number }>('UPDATE es_order_epoch SET epoch = epoch + 1 RETURNING epoch');
  return rows[0].epoch;
}
