import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import type { JobCancellations } from '../ports/job-cancellations.js';
import type { Logger } from '../ports/logger.js';
import type { PendingDownloadAccounts } from '../ports/pending-download-accounts.js';
import type { ReleaseOrphanedReservation } from './release-orphaned-reservation.js';
import { reservationTimes } from './reservation-times.js';
import type { SettleDownloadBilling } from './settle-download-billing.js';

export interface ReconcileSummary {
  failedJobs: number;
  settledReservations: number;
}

/** What the reconciliation of pending downloads works with. */
export interface ReconcilePendingDownloadsDependencies {
  readonly store: EventStore;
  readonly jobs: DownloadJobCommandHandler;
  readonly accounts: AccountCommandHandler;
  readonly pending: PendingDownloadAccounts;
  readonly settle: SettleDownloadBilling;
  readonly releaseOrphan: ReleaseOrphanedReservation;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pendingLimitMs: number;
  readonly cancellations?: JobCancellations | null;
}

/**
 * The last line against work lost to outages (dead-lettered messages, a relay that could not publish, a vanished
 * worker): every reservation pending longer than `pendingLimitMs` is ended. Its job is failed if still queued or
 * running, then the reservation is charged or released as the job's outcome says (released if the job was never
 * written). A job it fails is announced as cancelled, as DELETE does, so a worker still on it stops instead of
 * downloading a file nobody will be given. Every step is an idempotent command, so overlapping sweeps do no harm.
 */
export class ReconcilePendingDownloads {
  private readonly store: EventStore;
  private readonly jobs: DownloadJobCommandHandler;
  private readonly accounts: AccountCommandHandler;
  private readonly pending: PendingDownloadAccounts;
  private readonly settle: SettleDownloadBilling;
  private readonly releaseOrphan: ReleaseOrphanedReservation;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly pendingLimitMs: number;
  private readonly cancellations: JobCancellations | null;

  constructor(dependencies: ReconcilePendingDownloadsDependencies) {
    ({
      store: this.store,
      jobs: this.jobs,
      accounts: this.accounts,
      pending: this.pending,
      settle: this.settle,
      releaseOrphan: this.releaseOrphan,
      clock: this.clock,
      logger: this.logger,
      pendingLimitMs: this.pendingLimitMs,
      cancellations: this.cancellations = null,
    } = dependencies);
  }

  async runOnce(): Promise<ReconcileSummary> {
    const summary: ReconcileSummary = { failedJobs: 0, settledReservations: 0 };
    for (const accountId of await this.pending.accountIds()) {
      for (const [jobId, reservedAt] of await this.overdueReservations(accountId)) {
        const message = { jobId, accountId, occurredAt: reservedAt };
        const { state } = await this.jobs.load(jobId);
        if (state.status === 'NONE' || state.status === 'ABANDONED') {
          await this.releaseOrphan.handle(message);
        } else {
          if (state.status === 'IN_QUEUE' || state.status === 'IN_PROGRESS') {
            const reason = `Not finished within ${Math.round(this.pendingLimitMs / 1000)} s of its submission`;
            const failed = await this.jobs.handle(
              jobId,
              { type: 'FailJob', data: { jobId, errorCode: 'NETWORK_ERROR', reason, now: this.now() } },
              { correlationId: jobId },
            );
            if (failed.events.length > 0) await this.cancellations?.announce(jobId);
            summary.failedJobs += 1;
          }
          await this.settle.handle(message);
        }
        summary.settledReservations += 1;
        this.logger.warn(
          { accountId, jobId, reservedAt, jobStatus: state.status },
          'reconciled an overdue reservation',
        );
      }
    }
    return summary;
  }

  /** Reservations the account still holds open, with when they were made, older than the limit, oldest first. */
  private async overdueReservations(accountId: string): Promise<Array<[string, string]>> {
    const { state } = await this.accounts.load(accountId);
    if (state.pendingJobs.length === 0) return [];
    const reserved = await reservationTimes(this.store, accountId, state.pendingJobs, {
      type: 'DownloadReserved',
      idField: 'jobId',
    });
    const cutoff = this.clock.now().getTime() - this.pendingLimitMs;
    return [...reserved]
      .filter(([, reservedAt]) => Date.parse(reservedAt) <= cutoff)
      .sort(([, a], [, b]) => Date.parse(a) - Date.parse(b));
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
