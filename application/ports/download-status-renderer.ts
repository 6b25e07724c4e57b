import type { DownloadJobView } from './read-models.js';

/** The exact bytes `GET /download/{jobId}` answers for a job at `now` (its downloadUrl is signed from then). */
export interface DownloadStatusRenderer {
  render(view: DownloadJobView, now: Date): string;
}
