import type { AccountReadProgress } from '../../application/ports/account-read-progress.js';
import type { EventStore } from '../../application/ports/event-store.js';
import { pollUntil } from '../../application/poll-until.js';
import { ACCOUNT_CATEGORY } from '../../domain/account/decider.js';
import { streamName } from '../../domain/stream-name.js';
import type { PreparedReads } from './prepared-reads.js';

interface ProgressRow {
  lastRevision: number;
  /** The ids of the jobs and lookups whose reservations the row still holds open. */
  pending: ReadonlySet<string>;
}

interface StoredRow {
  last_revision: number;
  pending_jobs: string[] | null;
  pending_lookups: { lookupId: string }[] | null;
}

/** After a wait ran out, an account's read model is taken as lagging this long: its checks read it once, without waiting. */
const LAGGING_REMEMBERED_MS = 5_000;
const LAGGING_ACCOUNTS = 10_000;

/**
 * Reads the accounts read model's row of one account (its revision, and the reservations still pending in its
 * state) and polls it, briefly, until it reaches a revision: the projector may run in another process, so the row
 * is the one signal every API process shares. Concurrent waits for one account share one poll, and an account whose
 * wait ran out is not waited for again for a while, so a lagging read model costs each request a few reads at most.
 */
export class PostgresAccountReadProgress implements AccountReadProgress {
  private readonly waits = new Map<string, Promise<ProgressRow | null>>();
  /** Account id → until when it is taken as lagging. */
  private readonly lagging = new Map<string, number>();

  constructor(
    private readonly reads: PreparedReads,
    private readonly store: EventStore,
    private readonly waitMs: number,
  ) {}

  async waitForRevision(accountId: string, revision: number): Promise<boolean> {
    return (await this.rowAt(accountId, revision)) !== null;
  }

  async settledAmong(accountId: string, reservationIds: readonly string[]): Promise<ReadonlySet<string>> {
    const first = await this.row(accountId);
    const candidates = reservationIds.filter((id) => first !== null && !first.pending.has(id));
    if (first === null || candidates.length === 0) return new Set();
    const [head] = await this.store.readStream(streamName(ACCOUNT_CATEGORY, accountId), {
      direction: 'backwards',
      maxCount: 1,
    });
    const caughtUp = head === undefined || first.lastRevision >= head.revision;
    if (caughtUp) this.lagging.delete(accountId);
    const row = caughtUp ? first : await this.sharedWait(accountId, head.revision);
    return new Set(row === null ? [] : candidates.filter((id) => !row.pending.has(id)));
  }

  /** One poll per account and revision however many requests wait for it; none for an account found lagging lately. */
  private sharedWait(accountId: string, revision: number): Promise<ProgressRow | null> {
    if ((this.lagging.get(accountId) ?? 0) > Date.now()) return Promise.resolve(null);
    const key = `${accountId}@${revision}`;
    const running = this.waits.get(key);
    if (running !== undefined) return running;
    const wait = this.rowAt(accountId, revision)
      .then((row) => {
        if (row === null) this.rememberLagging(accountId);
        return row;
      })
      .finally(() => this.waits.delete(key));
    this.waits.set(key, wait);
    return wait;
  }

  private rememberLagging(accountId: string): void {
    this.lagging.delete(accountId);
    // The oldest entry makes room: forgetting it costs that account one more wait.
    if (this.lagging.size >= LAGGING_ACCOUNTS) this.lagging.delete(this.lagging.keys().next().value as string);
    this.lagging.set(accountId, Date.now() + LAGGING_REMEMBERED_MS);
  }

  /** The row once it is at `revision` or later, or null when the wait ends first. */
  private rowAt(accountId: string, revision: number): Promise<ProgressRow | null> {
    return pollUntil(
      () => this.row(accountId),
      (row) => row !== null && row.lastRevision >= revision,
      this.waitMs,
    );
  }

  private async row(accountId: string): Promise<ProgressRow | null> {
    const [row] = await this.reads.query<StoredRow>(
      'account-read-progress',
      `SELECT last_revision, state->'pendingJobs' AS pending_jobs, state->'pendingLookups' AS pending_lookups
         FROM accounts WHERE account_id = $1`,
      [accountId],
    );
    if (row === undefined) return null;
    const lookups = (row.pending_lookups ?? []).map((lookup) => lookup.lookupId);
    return { lastRevision: row.last_revision, pending: new Set([...(row.pending_jobs ?? []), ...lookups]) };
  }
}
