/**
 * How far the account read model (what `GET /me` serves) has got, so the API can keep its read-your-writes
 * promise: an operation the caller sees finished is already in its balances.
 */
export interface AccountReadProgress {
  /** Resolves true once the read model shows the account at `revision` of its stream or later; false when the bounded wait ends first. */
  waitForRevision(accountId: string, revision: number): Promise<boolean>;
  /**
   * Those of the reservations `reservationIds` (jobs' or lookups') that the read model shows charged or released:
   * no longer pending, in a read model that has reached the account stream's head as of the call (so a
   * reservation it has not seen yet does not pass for a settled one). However many are asked about, this reads
   * the row and the head once and waits at most once, within the bound.
   */
  settledAmong(accountId: string, reservationIds: readonly string[]): Promise<ReadonlySet<string>>;
}
