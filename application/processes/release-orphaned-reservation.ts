import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import { workContext } from './work-context.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/**
 * A submission writes the account's reservation, then the job's stream. If
 * the process dies between the two, the client never received the job id and
 * the slot would stay taken: after a grace period, a reservation without a job
 * is released.
 */
export class ReleaseOrphanedReservation {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  async handle(message: JobMessage): Promise<WorkOutcome> {
    const { state } = await this.jobs.load(message.jobId);
    if (state.status !== 'NONE') return DONE;
    const waited = this.clock.now().getTime() - Date.parse(message.occurredAt);
    if (waited < this.graceMs) return { kind: 'retry', afterMs: this.graceMs - waited };
    await this.accounts.handle(
      message.accountId,
      { type: 'ReleaseDownload', data: { jobId: message.jobId, now: this.clock.now().toISOString() } },
      workContext(message),
    );
    return DONE;
  }
}
