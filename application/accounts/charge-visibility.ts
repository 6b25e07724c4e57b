import type { AccountReadProgress } from '../ports/account-read-progress.js';

/** Reservations known settled in the read model, kept per process so a finished job polled again costs no further query. */
const REMEMBERED = 10_000;

/**
 * Whether `GET /me` already shows a finished job's charge or release. A job reads as finished only once it does,
 * so a client that sees the job end and then asks for its balances finds them up to date.
 */
export class ChargeVisibility {
  private readonly settled = new Set<string>();

  constructor(private readonly progress: AccountReadProgress) {}

  async isVisible(accountId: string, reservationId: string): Promise<boolean> {
    return (await this.visibleAmong(accountId, [reservationId])).has(reservationId);
  }

  /** Those of one account's reservations whose charge or release `GET /me` shows: one check (and wait) for them all. */
  async visibleAmong(accountId: string, reservationIds: readonly string[]): Promise<ReadonlySet<string>> {
    const unknown = reservationIds.filter((id) => !this.settled.has(id));
    const found = unknown.length === 0 ? new Set<string>() : await this.progress.settledAmong(accountId, unknown);
    const visible = new Set(reservationIds.filter((id) => this.settled.has(id) || found.has(id)));
    for (const id of found) this.remember(id);
    return visible;
  }

  /** Settled stays settled: the oldest entry makes room, and would only cost one more query. */
  private remember(reservationId: string): void {
    if (this.settled.size >= REMEMBERED) this.settled.delete(this.settled.values().next().value as string);
    this.settled.add(reservationId);
  }
}
