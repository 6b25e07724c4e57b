import type { AccountReadProgress } from '../../application/ports/account-read-progress.js';
import type { EventStore } from '../../application/ports/event-store.js';
import { streamName } from '../../domain/stream-name.js';
import { ACCOUNT_CATEGORY } from '../../domain/account/decider.js';
import type { PreparedReads } from './prepared-reads.js';

interface ProgressRow {
  last_revision: number;
  pending: boolean;
}

const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 50;

/**
 * Reads the accounts read model's row of one account (its revision, and whether a reservation is still
 * pending in its state) and polls it, briefly, until it reaches a revision: the projector may run in
 * another process, so the row is the one signal every API process shares.
 */
export class PostgresAccountReadProgress implements AccountReadProgress {
  constructor(
    private readonly reads: PreparedReads,
    private readonly store: EventStore,
    private readonly waitMs: number,
  ) {}

  async waitForRevision(accountId: string, revision: number): Promise<boolean> {
    return (await this.rowAt(accountId, revision, '')) !== null;
  }

  async showsSettled(accountId: string, reservationId: string): Promise<boolean> {
    const first = await this.row(accountId, reservationId);
    if (first === null || first.pending) return false;
    const [head] = await this.store.readStream(streamName(ACCOUNT_CATEGORY, accountId), {
      direction: 'backwards',
      maxCount: 1,
    });
    if (head === undefined || first.last_revision >= head.revision) return true;
    const caughtUp = await this.rowAt(accountId, head.revision, reservationId);
    return caughtUp !== null && !caughtUp.pending;
  }

  /** The row once it is at `revision` or later, or null when the wait ends first. */
  private async rowAt(accountId: string, revision: number, reservationId: string): Promise<ProgressRow | null> {
    const deadline = Date.now() + this.waitMs;
    for (let pollMs = FIRST_POLL_MS; ; pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
      const row = await this.row(accountId, reservationId);
      if (row !== null && row.last_revision >= revision) return row;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, pollMs)));
    }
  }

  private async row(accountId: string, reservationId: string): Promise<ProgressRow | null> {
    const [row] = await this.reads.query<ProgressRow>(
      'account-read-progress',
      `SELECT last_revision,
              (state->'pendingJobs') @> to_jsonb(ARRAY[$2::text])
              OR coalesce(state->'pendingLookups', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('lookupId', $2::text)) AS pending
         FROM accounts WHERE account_id = $1`,
      [accountId, reservationId],
    );
    return row ?? null;
  }
}
