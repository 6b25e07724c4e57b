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
    if (this.settled.has(reservationId)) return true;
    if (!(await this.progress.showsSettled(accountId, reservationId))) return false;
    // Settled stays settled: the oldest entry makes room, and would only cost one more query.
    if (this.settled.size >= REMEMBERED) this.settled.delete(this.settled.values().next().value as string);
    this.settled.add(reservationId);
    return true;
  }
}
