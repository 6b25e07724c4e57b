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

/** What the reconciliation of pending lookups works with. */
export interface ReconcilePendingLookupsDependencies {
  readonly store: EventStore;
  readonly pending: PendingLookupAccounts;
  readonly jobs: Record<LookupJobFeature, LookupJobSteps<unknown>>;
  readonly accounts: AccountCommandHandler;
  readonly settle: SettleLookupBilling;
  readonly releaseOrphan: ReleaseOrphanedLookup;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pendingLimitMs: number;
}

/**
 * The lookups' last line against work lost to outages (dead-lettered
 * messages, a relay that could not publish, a worker that vanished): every
 * info or client-download reservation pending longer than `pendingLimitMs`
 * is brought to an end: a job still pending is failed, then its unit charged
 * or released as the job's outcome says; a reservation whose job was never
 * written is abandoned and released. A channel listing is settled by its own
 * request, which is bounded in time far below that limit, so its reservation
 * is released as soon as the releaser of orphaned lookups takes it for given
 * up (its grace plus the listing's timeout and settlement), never while its
 * request may still be running; a lost message to that releaser (an outage
 * of the queue) then holds the units minutes, not an hour. Every step is an
 * idempotent command, so a sweep overlapping the normal flow, or another
 * instance's sweep, does no harm.
 */
export class ReconcilePendingLookups {
  private readonly store: EventStore;
  private readonly pending: PendingLookupAccounts;
  private readonly jobs: Record<LookupJobFeature, LookupJobSteps<unknown>>;
  private readonly accounts: AccountCommandHandler;
  private readonly settle: SettleLookupBilling;
  private readonly releaseOrphan: ReleaseOrphanedLookup;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly pendingLimitMs: number;

  constructor(dependencies: ReconcilePendingLookupsDependencies) {
    ({
      store: this.store,
      pending: this.pending,
      jobs: this.jobs,
      accounts: this.accounts,
      settle: this.settle,
      releaseOrphan: this.releaseOrphan,
      clock: this.clock,
      logger: this.logger,
      pendingLimitMs: this.pendingLimitMs,
    } = dependencies);
  }

  async runOnce(): Promise<ReconcileLookupsSummary> {
    const summary: ReconcileLookupsSummary = { failedJobs: 0, settledReservations: 0 };
    const cutoff = this.clock.now().getTime() - this.pendingLimitMs;
    for (const accountId of await this.pending.accountIds()) {
      for (const { lookupId, feature, reservedAt } of await this.openReservations(accountId)) {
        let jobStatus: LookupJobStreamStatus | null = null;
        if (feature === 'channel_list') {
          // Settled by its own request, whose time is bounded: the releaser's bound for listings, not the pending limit.
          if (
            (await this.releaseOrphan.handle({ jobId: lookupId, accountId, occurredAt: reservedAt })).kind === 'retry'
          )
            continue;
        } else {
          if (Date.parse(reservedAt) > cutoff) continue;
          jobStatus = await this.endJob(accountId, lookupId, feature, reservedAt, summary);
        }
        summary.settledReservations += 1;
        this.logger.warn(
          { accountId, lookupId, feature, reservedAt, jobStatus },
          'reconciled an overdue lookup reservation',
        );
      }
    }
    return summary;
  }

  /** Ends an info or client-download lookup pending past the limit and settles its unit; answers the job's status as found. */
  private async endJob(
    accountId: string,
    lookupId: string,
    feature: LookupJobFeature,
    reservedAt: string,
    summary: ReconcileLookupsSummary,
  ): Promise<LookupJobStreamStatus> {
    const context = { correlationId: lookupId };
    const jobs = this.jobs[feature];
    const status = (await jobs.load(lookupId)).status;
    if (status === 'none' || status === 'abandoned') {
      await this.releaseOrphan.handle({ jobId: lookupId, accountId, occurredAt: reservedAt });
      return status;
    }
    let final: LookupJobStreamStatus = status;
    if (final === 'pending') {
      final = await this.failJob(jobs, lookupId, context);
      if (final === 'failed') summary.failedJobs += 1;
    }
    if (final === 'success' || final === 'failed') await this.settle.handle(accountId, lookupId, final, context);
    return status;
  }

  /** Fails a pending job; one finished meanwhile keeps the outcome it reached. */
  private async failJob(
    jobs: LookupJobSteps<unknown>,
    jobId: string,
    context: { correlationId: string },
  ): Promise<LookupJobStreamStatus> {
    const reason = `Not finished within ${Math.round(this.pendingLimitMs / 1000)} s of its submission`;
    try {
      return await jobs.fail(jobId, reason, 'NETWORK_ERROR', this.now(), context);
    } catch (error) {
      if (!(error instanceof InvalidTransitionError)) throw error;
      return (await jobs.load(jobId)).status;
    }
  }

  /** Lookup reservations the account still holds open, with when they were made, oldest first. */
  private async openReservations(
    accountId: string,
  ): Promise<Array<{ lookupId: string; feature: LookupFeature; reservedAt: string }>> {
    const pending = (await this.accounts.load(accountId)).state.pendingLookups ?? [];
    if (pending.length === 0) return [];
    const reserved = await reservationTimes(
      this.store,
      accountId,
      pending.map(({ lookupId }) => lookupId),
      { type: 'LookupReserved', idField: 'lookupId' },
    );
    return pending
      .flatMap(({ lookupId, feature }) => {
        const reservedAt = reserved.get(lookupId);
        return reservedAt === undefined ? [] : [{ lookupId, feature, reservedAt }];
      })
      .sort((a, b) => Date.parse(a.reservedAt) - Date.parse(b.reservedAt));
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
