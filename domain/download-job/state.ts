import type { DownloadErrorCode } from '../download-error-code.js';
import type { MediaFormat } from '../media-format.js';
import type { DownloadRequested } from './events.js';

export type DownloadJobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export type DownloadJobState =
  | { status: 'NONE' }
  | { status: 'ABANDONED'; jobId: string; accountId: string }
  | {
      status: DownloadJobStatus;
      request: DownloadRequested['data'];
      startedAt: string | null;
      /** The number of the latest attempt (each start or takeover by a worker is one). */
      attempts: number;
      /** Attempts that ended in a download error worth retrying: what the attempt limit counts. */
      failedAttempts: number;
      /** The worker delivery that holds the job while it runs; null between attempts. */
      leaseId: string | null;
      /** The queue message whose delivery holds the lease; null when unknown (events before it was recorded). */
      leaseMessageId: string | null;
      completedAt: string | null;
      result: {
        fileKey: string;
        fileSize: number;
        actualFormat: MediaFormat;
        mimeType: string;
        fileExtension: string;
      } | null;
      errorCode: DownloadErrorCode | null;
      failureReason: string | null;
    };

export const initialDownloadJobState = (): DownloadJobState => ({ status: 'NONE' });

/** A job that was requested: every command but the submission and the abandonment is decided on one. */
export type RequestedDownloadJobState = Extract<DownloadJobState, { request: unknown }>;

/** What a command to a requested job is decided on. */
export interface RequestedJobContext {
  readonly state: RequestedDownloadJobState;
  readonly jobId: string;
  readonly accountId: string;
}
