import type { DownloadErrorCode } from '../download-error-code.js';
import type { LookupJobRequest } from './events.js';
import type { LookupJobStatus } from './status.js';

export type LookupJobState<Details, Result> =
  | { status: 'none' }
  | { status: 'abandoned'; jobId: string; accountId: string }
  | {
      status: LookupJobStatus;
      request: LookupJobRequest & Details;
      result: Result | null;
      error: string | null;
      errorCode: DownloadErrorCode | null;
      /** Attempts that ended in a failure worth retrying: what the attempt limit counts. */
      failedAttempts: number;
    };
