import type { ChargeVisibility } from '../accounts/charge-visibility.js';
import type { DownloadJobView, DownloadJobReadModel } from '../ports/read-models.js';
import { downloadJobBeforeSettlement } from './download-job-before-settlement.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { downloadJobViewFromState } from './download-job-view.js';
import type { SettledJobViews } from './settled-job-views.js';

/**
 * Polling reads the read model; a job the projector has not reached yet is
 * folded from its stream, so a poll right after the submit never answers 404.
 * Another account's job reads as missing. A finished job reads as still under way
 * until the account's read model shows its charge or release (read-your-writes for `GET /me`);
 * once it does, its view is kept in memory and later polls read no row.
 */
export class GetDownloadJob {
  constructor(
    private readonly readModel: DownloadJobReadModel,
    private readonly jobs: DownloadJobCommandHandler,
    private readonly charges: ChargeVisibility | null = null,
    private readonly settledViews: SettledJobViews | null = null,
  ) {}

  async execute(accountId: string, jobId: string): Promise<DownloadJobView | null> {
    const settled = this.settledViews?.get(jobId);
    if (settled !== undefined) return settled.accountId === accountId ? settled : null;
    const ticket = this.settledViews?.ticket() ?? 0;
    const stored = await this.readModel.get(jobId);
    const view = stored ?? downloadJobViewFromState((await this.jobs.load(jobId)).state);
    if (view === null || view.accountId !== accountId) return null;
    const finished = view.status === 'COMPLETED' || view.status === 'FAILED';
    if (!finished) return view;
    if (this.charges !== null && !(await this.charges.isVisible(accountId, jobId)))
      return downloadJobBeforeSettlement(view);
    // Only the read model's rows are kept: its change notifications are what forget them.
    if (stored !== null) this.settledViews?.remember(view, ticket);
    return view;
  }
}
