import type { DownloadJobView, DownloadJobReadModel } from '../ports/read-models.js';
import type { DownloadJobCommandHandler } from './download-job-commands.js';
import { downloadJobViewFromState } from './download-job-view.js';

/**
 * Polling reads the read model; a job the projector has not reached yet is
 * folded from its stream, so a poll right after the submit never answers 404.
 * Another account's job reads as missing.
 */
export class GetDownloadJob {
  constructor(
    private readonly readModel: DownloadJobReadModel,
    private readonly jobs: DownloadJobCommandHandler,
  ) {}

  async execute(accountId: string, jobId: string): Promise<DownloadJobView | null> {
    const view = (await this.readModel.get(jobId)) ?? downloadJobViewFromState((await this.jobs.load(jobId)).state);
    return view !== null && view.accountId === accountId ? view : null;
  }
}
