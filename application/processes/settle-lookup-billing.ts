import type { LookupJobStatus } from '../../domain/lookup-job/status.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { CommandContext } from '../command-handler.js';
import type { Anomalies } from '../ports/anomalies.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import { wasCharged } from './was-charged.js';

/**
 * A finished info or client-download job settles its reserved unit: a
 * successful one is charged, a failed one released. The account decider
 * makes a repeated settlement a no-op. A charge that finds no reservation and
 * no earlier charge of the job means a lookup ran unadmitted: it is recorded
 * as an anomaly, as for downloads.
 */
export class SettleLookupBilling {
  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly store: EventStore,
    private readonly anomalies: Anomalies,
  ) {}

  async handle(
    accountId: string,
    lookupId: string,
    status: Exclude<LookupJobStatus, 'pending'>,
    context: CommandContext,
  ): Promise<void> {
    const now = this.clock.now().toISOString();
    if (status === 'failed') {
      await this.accounts.handle(accountId, { type: 'ReleaseLookup', data: { lookupId, now } }, context);
      return;
    }
    const charge = await this.accounts.handle(accountId, { type: 'ChargeLookup', data: { lookupId, now } }, context);
    const chargedBefore = () =>
      wasCharged(this.store, accountId, {
        chargedType: 'LookupCharged',
        reservedType: 'LookupReserved',
        idField: 'lookupId',
        id: lookupId,
      });
    if (charge.events.length === 0 && !(await chargedBefore())) {
      this.anomalies.record('charge_without_reservation', { accountId, lookupId });
    }
  }
}
