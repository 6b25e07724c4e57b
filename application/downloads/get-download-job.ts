import type { ChargeVisibility } from '../accounts/charge-visibility.js';
import type { DownloadJobView, DownloadJobReadModel } from '../ports/read-models.js';
import { downloadJobBeforeSettlement } from './download-job-before-settlement.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { downloadJobViewFromState } from './download-job-view.js';

/**
 * Polling reads the read model; a job the projector has not reached yet is
 * folded from its stream, so a poll right after the submit never answers 404.
 * Another account's job reads as missing. A finished job reads as still under way
 * until the account's read model shows its charge or release (read-your-writes for `GET /me`).
 */
export class GetDownloadJob {
  constructor(
    private readonly readModel: DownloadJobReadModel,
    private readonly jobs: DownloadJobCommandHandler,
    private readonly charges: ChargeVisibility | null = null,
  ) {}

  async execute(accountId: string, jobId: string): Promise<DownloadJobView | null> {
    const view = (await this.readModel.get(jobId)) ?? downloadJobViewFromState((await this.jobs.load(jobId)).state);
    if (view === null || view.accountId !== accountId) return null;
    const finished = view.status === 'COMPLETED' || view.status === 'FAILED';
    if (!finished || this.charges === null || (await this.charges.isVisible(accountId, jobId))) return view;
    return downloadJobBeforeSettlement(view);
  }
}
