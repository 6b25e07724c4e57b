import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import { workContext } from './work-context.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/**
 * A finished job settles its reservation on the account: a completed one is
 * charged (ChargeBandwidth), a failed one released. The account decider makes
 * a repeated settlement a no-op, so redelivery never charges twice.
 */
export class SettleDownloadBilling {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
  ) {}

  async handle(message: JobMessage): Promise<WorkOutcome> {
    const { state } = await this.jobs.load(message.jobId);
    const now = this.clock.now().toISOString();
    const context = workContext(message);
    if (state.status === 'COMPLETED' && state.result !== null) {
      await this.accounts.handle(
        state.request.accountId,
        { type: 'ChargeBandwidth', data: { jobId: message.jobId, fileSizeBytes: state.result.fileSize, now } },
        context,
      );
    } else if (state.status === 'FAILED') {
      await this.accounts.handle(state.request.accountId, { type: 'ReleaseDownload', data: { jobId: message.jobId, now } }, context);
    }
    return DONE;
  }
}
