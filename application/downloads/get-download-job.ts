import type { ChargeVisibility } from '../accounts/charge-visibility.js';
import type { DownloadJobView, DownloadJobReadModel } from '../ports/read-models.js';
import { downloadJobBeforeSettlement } from './download-job-before-settlement.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { downloadJobViewFromState } from './download-job-view.js';
import type { PendingJobViews } from './pending-job-views.js';
import type { SettledJobViews } from './settled-job-views.js';

/**
 * Polling reads the read model; a job the projector has not reached yet is
 * folded from its stream, so a poll right after the submit never answers 404.
 * Another account's job reads as missing. A finished job reads as still under way
 * until the account's read model shows its charge or release (read-your-writes for `GET /me`);
 * once it does, its view is kept in memory and later polls read no row.
 * While the process follows the job streams, a queued or running job is folded from its stream and kept in memory
 * until its next status change is heard (see PendingJobViews), so its polls read nothing either.
 */
export class GetDownloadJob {
  constructor(
    private readonly readModel: DownloadJobReadModel,
    private readonly jobs: DownloadJobCommandHandler,
    private readonly charges: ChargeVisibility | null = null,
    private readonly settledViews: SettledJobViews | null = null,
    private readonly pendingViews: PendingJobViews | null = null,
  ) {}

  async execute(accountId: string, jobId: string): Promise<DownloadJobView | null> {
    const settled = this.settledViews?.get(jobId);
    if (settled !== undefined) return settled.accountId === accountId ? settled : null;
    const folded = await this.foldedWhileFollowing(jobId);
    if (folded === null || (folded !== undefined && !isFinished(folded)))
      return folded?.accountId === accountId ? folded : null;
    const ticket = this.settledViews?.ticket() ?? 0;
    const stored = await this.readModel.get(jobId);
    // A finished job's row, once there, is what is kept; until then the stream says more than a lagging row.
    const fromRow = stored !== null && (folded === undefined || isFinished(stored));
    const view = fromRow ? stored : (folded ?? downloadJobViewFromState((await this.jobs.load(jobId)).state));
    if (view === null || view.accountId !== accountId) return null;
    if (!isFinished(view)) return view;
    if (this.charges !== null && !(await this.charges.isVisible(accountId, jobId)))
      return downloadJobBeforeSettlement(view);
    // Only the read model's rows are kept: its change notifications are what forget them.
    if (fromRow) this.settledViews?.remember(view, ticket);
    return view;
  }

  /**
   * While the job streams are followed: a queued or running job's view from memory, or folded from its stream (and
   * then kept); a finished job's folded view; null for no such job. Undefined when not following: read the store.
   */
  private async foldedWhileFollowing(jobId: string): Promise<DownloadJobView | null | undefined> {
    return this.pendingViews?.view(jobId, async () => downloadJobViewFromState((await this.jobs.load(jobId)).state));
  }
}

function isFinished(view: DownloadJobView): boolean {
  return view.status === 'COMPLETED' || view.status === 'FAILED';
}
