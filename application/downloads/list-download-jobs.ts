import type { DownloadJobStatus } from '../../domain/download-job/state.js';
import type { ChargeVisibility } from '../accounts/charge-visibility.js';
import { downloadJobBeforeSettlement } from './download-job-before-settlement.js';
import type { DownloadJobReadModel, DownloadJobView } from '../ports/read-models.js';
import { encodeJobListCursor } from './job-list-cursor.js';
import type { DownloadJobListPosition } from '../ports/read-models.js';

export interface DownloadJobPage {
  jobs: DownloadJobView[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/**
 * An account's own jobs, newest first, a page at a time. One row more than
 * asked is read, so the last page says so instead of pointing at an empty one.
 * A finished job whose charge or release `GET /me` does not show yet reads as
 * still under way, as a poll of it does (and drops out of a page filtered by its final status).
 */
export class ListDownloadJobs {
  constructor(
    private readonly readModel: DownloadJobReadModel,
    private readonly charges: ChargeVisibility | null = null,
  ) {}

  async execute(input: {
    accountId: string;
    status?: DownloadJobStatus;
    limit: number;
    after?: DownloadJobListPosition;
  }): Promise<DownloadJobPage> {
    const rows = await this.readModel.list({ ...input, limit: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > input.limit && last !== undefined
        ? encodeJobListCursor({ createdAt: last.createdAt, jobId: last.jobId })
        : null;
    const shown = await this.asSettled(input.accountId, page);
    return { jobs: shown.filter((view) => input.status === undefined || view.status === input.status), nextCursor };
  }

  /** One check of the account's read model for the whole page, however many of its jobs have finished. */
  private async asSettled(accountId: string, page: DownloadJobView[]): Promise<DownloadJobView[]> {
    const finished = page.filter(isFinished).map((view) => view.jobId);
    if (finished.length === 0 || this.charges === null) return page;
    const visible = await this.charges.visibleAmong(accountId, finished);
    return page.map((view) =>
      isFinished(view) && !visible.has(view.jobId) ? downloadJobBeforeSettlement(view) : view,
    );
  }
}

function isFinished(view: DownloadJobView): boolean {
  return view.status === 'COMPLETED' || view.status === 'FAILED';
}
