import { InvalidTransitionError } from '../../domain/errors.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import { pollUntil } from '../poll-until.js';
import type { AccountReadProgress } from '../ports/account-read-progress.js';
import type { Clock } from '../ports/clock.js';
import type { JobCancellations } from '../ports/job-cancellations.js';
import type { DownloadJobReadModel, DownloadJobView } from '../ports/read-models.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { downloadJobViewFromState } from './download-job-view.js';

/** Recorded as the failure's reason; clients see a FAILED job without an errorCode. */
export const CANCELLED_REASON = 'Cancelled by the client';

/** What a cancel waits for before answering, so the client's next poll and `GET /me` show it (read-your-writes). */
export interface CancelVisibility {
  accounts: AccountCommandHandler;
  jobViews: DownloadJobReadModel;
  accountProgress: AccountReadProgress;
  /** The bound on the wait (`READ_YOUR_WRITES_WAIT_MS`). */
  waitMs: number;
}

/**
 * `DELETE /download/{jobId}`: a queued or running job ends FAILED at once.
 * The failure follows the ordinary path from there: its reservation is
 * released uncharged and its webhook sent. The worker running it is told to
 * stop its yt-dlp and ffmpeg.
 */
export class CancelDownload {
  constructor(
    private readonly jobs: DownloadJobCommandHandler,
    private readonly cancellations: JobCancellations,
    private readonly clock: Clock,
    private readonly visibility: CancelVisibility | null = null,
  ) {}

  /** The job after the cancel; null when it does not exist or belongs to another account. */
  async execute(accountId: string, jobId: string, correlationId: string): Promise<DownloadJobView | null> {
    const { state } = await this.jobs.load(jobId);
    if (state.status === 'NONE' || state.status === 'ABANDONED' || state.request.accountId !== accountId) return null;
    if (state.status === 'COMPLETED' || state.status === 'FAILED') throw alreadyFinished(jobId, state.status);
    const result = await this.failJob(jobId, correlationId);
    // No event: the job failed on its own between the read and the cancel.
    if (result.events.length === 0) throw alreadyFinished(jobId, 'FAILED');
    await this.cancellations.announce(jobId);
    await this.untilVisible(accountId, jobId, correlationId);
    return downloadJobViewFromState(result.state);
  }

  /**
   * A poll reads the jobs' read model, and shows a finished job as such only once `GET /me` shows its release: both
   * lag the stream. The cancel releases the reservation itself (billing, which would too, finds it done) rather than
   * wait for the work queue, then waits, within one bound, for both read models to show it. Past the bound (a
   * projector stopped) it answers anyway, and polls show the job under way until the projectors catch up.
   */
  private async untilVisible(accountId: string, jobId: string, correlationId: string): Promise<void> {
    if (this.visibility === null) return;
    const { accounts, jobViews, accountProgress, waitMs } = this.visibility;
    const now = this.clock.now().toISOString();
    const released = await accounts.handle(
      accountId,
      { type: 'ReleaseDownload', data: { jobId, now } },
      { correlationId },
    );
    await Promise.all([
      accountProgress.waitForRevision(accountId, released.revision),
      pollUntil(
        () => jobViews.get(jobId),
        (view) => view?.status === 'FAILED' || view?.status === 'COMPLETED',
        waitMs,
      ),
    ]);
  }

  /**
   * A worker may complete the job between the read and the cancel: the
   * decider then refuses in its own words, and the client gets the
   * documented answer for a finished job instead.
   */
  private async failJob(jobId: string, correlationId: string) {
    try {
      return await this.jobs.handle(
        jobId,
        {
          type: 'FailJob',
          data: { jobId, errorCode: null, reason: CANCELLED_REASON, now: this.clock.now().toISOString() },
        },
        { correlationId },
      );
    } catch (error) {
      if (!(error instanceof InvalidTransitionError)) throw error;
      const { state } = await this.jobs.load(jobId);
      if (state.status === 'COMPLETED' || state.status === 'FAILED') throw alreadyFinished(jobId, state.status);
      throw error;
    }
  }
}

function alreadyFinished(jobId: string, status: string): InvalidTransitionError {
  return new InvalidTransitionError(`Download job ${jobId} is already ${status} and cannot be cancelled`);
}
