import type { LookupFeature } from '../../domain/account/lookups.js';
import { InvalidTransitionError } from '../../domain/errors.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { LookupJobSteps, LookupJobStreamStatus } from '../lookups/lookup-job-steps.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import type { Logger } from '../ports/logger.js';
import type { PendingLookupAccounts } from '../ports/pending-lookup-accounts.js';
import type { LookupJobFeature, ReleaseOrphanedLookup } from './release-orphaned-lookup.js';
import { reservationTimes } from './reservation-times.js';
import type { SettleLookupBilling } from './settle-lookup-billing.js';

export interface ReconcileLookupsSummary {
  failedJobs: number;
  settledReservations: number;
}

/**
 * The lookups' last line against work lost to outages (dead-lettered
 * messages, a relay that could not publish, a worker that vanished): every
 * lookup reservation pending longer than `pendingLimitMs` is brought to an
 * end. An info or client-download job still pending is failed, then its unit
 * charged or released as the job's outcome says; a reservation whose job was
 * never written is abandoned and released, and a channel listing's, whose
 * request is long over, is released. Every step is an idempotent command, so
 * a sweep overlapping the normal flow, or another instance's sweep, does no harm.
 */
export class ReconcilePendingLookups {
  constructor(
    private readonly store: EventStore,
    private readonly pending: PendingLookupAccounts,
    private readonly jobs: Record<LookupJobFeature, LookupJobSteps<unknown>>,
    private readonly accounts: AccountCommandHandler,
    private readonly settle: SettleLookupBilling,
    private readonly releaseOrphan: ReleaseOrphanedLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly pendingLimitMs: number,
  ) {}

  async runOnce(): Promise<ReconcileLookupsSummary> {
    const summary: ReconcileLookupsSummary = { failedJobs: 0, settledReservations: 0 };
    for (const accountId of await this.pending.accountIds()) {
      for (const { lookupId, feature, reservedAt } of await this.overdueReservations(accountId)) {
        const context = { correlationId: lookupId };
        let status: LookupJobStreamStatus | null = null;
        if (feature === 'channel_list') {
          await this.accounts.handle(accountId, { type: 'ReleaseLookup', data: { lookupId, now: this.now() } }, context);
        } else {
          const jobs = this.jobs[feature];
          status = (await jobs.load(lookupId)).status;
          if (status === 'none' || status === 'abandoned') {
            await this.releaseOrphan.handle({ jobId: lookupId, accountId, occurredAt: reservedAt });
          } else {
            let final: LookupJobStreamStatus = status;
            if (final === 'pending') {
              final = await this.failJob(jobs, lookupId, context);
              if (final === 'failed') summary.failedJobs += 1;
            }
            if (final === 'success' || final === 'failed') await this.settle.handle(accountId, lookupId, final, context);
          }
        }
        summary.settledReservations += 1;
        this.logger.warn({ accountId, lookupId, feature, reservedAt, jobStatus: status }, 'reconciled an overdue lookup reservation');
      }
    }
    return summary;
  }

  /** Fails a pending job; one finished meanwhile keeps the outcome it reached. */
  private async failJob(jobs: LookupJobSteps<unknown>, jobId: string, context: { correlationId: string }): Promise<LookupJobStreamStatus> {
    const reason = `Not finished within ${Math.round(this.pendingLimitMs / 1000)} s of its submission`;
    try {
      return await jobs.fail(jobId, reason, 'NETWORK_ERROR', this.now(), context);
    } catch (error) {
      if (!(error instanceof InvalidTransitionError)) throw error;
      return (await jobs.load(jobId)).status;
    }
  }

  /** Lookup reservations the account still holds open, with when they were made, older than the limit, oldest first. */
  private async overdueReservations(accountId: string): Promise<Array<{ lookupId: string; feature: LookupFeature; reservedAt: string }>> {
    const pending = (await this.accounts.load(accountId)).state.pendingLookups ?? [];
    if (pending.length === 0) return [];
    const reserved = await reservationTimes(this.store, accountId, pending.map(({ lookupId }) => lookupId), { type: 'LookupReserved', idField: 'lookupId' });
    const cutoff = this.clock.now().getTime() - this.pendingLimitMs;
    return pending
      .flatMap(({ lookupId, feature }) => {
        const reservedAt = reserved.get(lookupId);
        return reservedAt === undefined || Date.parse(reservedAt) > cutoff ? [] : [{ lookupId, feature, reservedAt }];
      })
      .sort((a, b) => Date.parse(a.reservedAt) - Date.parse(b.reservedAt));
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
