import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import { workContext } from './work-context.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/**
 * A submission writes the account's reservation, then the job's stream; if the process dies between the two, the
 * client never got the job id, so after a grace period a reservation without a job is released. The job stream
 * decides the race with a submission that is only slow: the releaser writes DownloadAbandoned expecting no stream and
 * releases only once that is written, so a later job append fails and an earlier one keeps its reservation.
 */
export class ReleaseOrphanedReservation {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  async handle(message: JobMessage): Promise<WorkOutcome> {
    const { jobId, accountId } = message;
    const { state } = await this.jobs.load(jobId);
    if (state.status !== 'NONE' && state.status !== 'ABANDONED') return DONE;
    const waited = this.clock.now().getTime() - Date.parse(message.occurredAt);
    if (state.status === 'NONE' && waited < this.graceMs) return { kind: 'retry', afterMs: this.graceMs - waited };
    const context = workContext(message);
    const now = this.clock.now().toISOString();
    const decided = await this.jobs.handle(jobId, { type: 'AbandonJob', data: { jobId, accountId, now } }, context);
    if (decided.state.status !== 'ABANDONED') return DONE;
    await this.accounts.handle(accountId, { type: 'ReleaseDownload', data: { jobId, now, abandoned: true } }, context);
    return DONE;
  }
}
