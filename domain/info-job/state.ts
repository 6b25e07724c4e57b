import type { DownloadErrorCode } from '../download-error-code.js';
import type { LookupJobStatus } from '../lookup-job-status.js';
import type { InfoRequested, VideoInfo } from './events.js';

export type InfoJobState =
  | { status: 'none' }
  | { status: 'abandoned'; jobId: string; accountId: string }
  | {
      status: LookupJobStatus;
      request: InfoRequested['data'];
      result: VideoInfo | null;
      error: string | null;
      errorCode: DownloadErrorCode | null;
      /** Attempts that ended in a failure worth retrying: what the attempt limit counts. */
      failedAttempts: number;
    };

export const initialInfoJobState = (): InfoJobState => ({ status: 'none' });
