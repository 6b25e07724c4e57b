import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Anomalies } from '../ports/anomalies.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import { wasCharged } from './was-charged.js';
import { workContext } from './work-context.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/**
 * A finished job settles its reservation on the account: a completed one is
 * charged (ChargeBandwidth), a failed one released. The account decider makes
 * a repeated settlement a no-op, so redelivery never charges twice. A charge
 * that finds no reservation and no earlier charge of the job means a download
 * ran unadmitted: it is recorded as an anomaly.
 */
export class SettleDownloadBilling {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly store: EventStore,
    private readonly anomalies: Anomalies,
  ) {}

  async handle(message: JobMessage): Promise<WorkOutcome> {
    const { state } = await this.jobs.load(message.jobId);
    const now = this.clock.now().toISOString();
    const context = workContext(message);
    if (state.status === 'COMPLETED' && state.result !== null) {
      const { accountId } = state.request;
      const charge = await this.accounts.handle(
        accountId,
        { type: 'ChargeBandwidth', data: { jobId: message.jobId, fileSizeBytes: state.result.fileSize, now } },
        context,
      );
      const chargedBefore = () =>
        wasCharged(this.store, accountId, {
          chargedType: 'BandwidthCharged',
          reservedType: 'DownloadReserved',
          idField: 'jobId',
          id: message.jobId,
        });
      if (charge.events.length === 0 && !(await chargedBefore())) {
        this.anomalies.record('charge_without_reservation', {
          accountId,
          jobId: message.jobId,
          fileSize: state.result.fileSize,
        });
      }
    } else if (state.status === 'FAILED') {
      await this.accounts.handle(
        state.request.accountId,
        { type: 'ReleaseDownload', data: { jobId: message.jobId, now } },
        context,
      );
    }
    return DONE;
  }
}
