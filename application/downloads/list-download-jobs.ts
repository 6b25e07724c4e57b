import type { DownloadJobStatus } from '../../domain/download-job/state.js';
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
 */
export class ListDownloadJobs {
  constructor(private readonly readModel: DownloadJobReadModel) {}

  async execute(input: { accountId: string; status?: DownloadJobStatus; limit: number; after?: DownloadJobListPosition }): Promise<DownloadJobPage> {
    const rows = await this.readModel.list({ ...input, limit: input.limit + 1 });
    const jobs = rows.slice(0, input.limit);
    const last = jobs.at(-1);
    const nextCursor = rows.length > input.limit && last !== undefined ? encodeJobListCursor({ createdAt: last.createdAt, jobId: last.jobId }) : null;
    return { jobs, nextCursor };
  }
}
