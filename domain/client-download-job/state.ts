import type { DownloadErrorCode } from '../download-error-code.js';
import type { LookupJobStatus } from '../lookup-job-status.js';
import type { ClientDownloadInfo, ClientDownloadRequested } from './events.js';

export type ClientDownloadJobState =
  | { status: 'none' }
  | {
      status: LookupJobStatus;
      request: ClientDownloadRequested['data'];
      result: ClientDownloadInfo | null;
      error: string | null;
      errorCode: DownloadErrorCode | null;
    };

export const initialClientDownloadJobState = (): ClientDownloadJobState => ({ status: 'none' });
