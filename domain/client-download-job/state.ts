import type { DownloadErrorCode } from '../download-error-code.js';
import type { LookupJobStatus } from '../lookup-job-status.js';
import type { ClientDownloadInfo, ClientDownloadRequested } from './events.js';

export type ClientDownloadJobState =
  | { status: 'none' }
  | { status: 'abandoned'; jobId: string; accountId: string }
  | {
      status: LookupJobStatus;
      request: ClientDownloadRequested['data'];
      result: ClientDownloadInfo | null;
      error: string | null;
      errorCode: DownloadErrorCode | null;
      /** Attempts that ended in a failure worth retrying: what the attempt limit counts. */
      failedAttempts: number;
    };

export const initialClientDownloadJobState = (): ClientDownloadJobState => ({ status: 'none' });
