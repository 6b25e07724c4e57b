/**
 * How far the account read model (what `GET /me` serves) has got, so the API can keep its read-your-writes
 * promise: an operation the caller sees finished is already in its balances.
 */
export interface AccountReadProgress {
  /** Resolves true once the read model shows the account at `revision` of its stream or later; false when the bounded wait ends first. */
  waitForRevision(accountId: string, revision: number): Promise<boolean>;
  /**
   * True when the read model shows the reservation `reservationId` (a job's or a lookup's) charged or released:
   * no longer pending, in a read model that has reached the account stream's head as of the call (so a
   * reservation it has not seen yet does not pass for a settled one).
   */
  showsSettled(accountId: string, reservationId: string): Promise<boolean>;
}
