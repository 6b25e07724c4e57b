import type { DownloadJobView } from '../ports/read-models.js';

/** How a finished job read until it finished: shown while the account's read model does not yet show its charge or release. */
export function downloadJobBeforeSettlement(view: DownloadJobView): DownloadJobView {
  return {
    ...view,
    status: view.startedAt === null ? 'IN_QUEUE' : 'IN_PROGRESS',
    actualFormat: null,
    fileKey: null,
    fileSize: null,
    fileExtension: null,
    errorCode: null,
    completedAt: null,
  };
}
