import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { LookupJobStatus } from '../../domain/lookup-job-status.js';
import type { CommandContext } from '../command-handler.js';

/** A lookup job's stream as the processes see it: never written, abandoned before it was, or the job's own status. */
export type LookupJobStreamStatus = LookupJobStatus | 'none' | 'abandoned';

/** What the processes need of one kind of lookup job (info, client download), whose commands differ only in name. */
export interface LookupJobSteps<Result> {
  /** The job's status, its failed attempts and, while pending, the extractor call that answers it. */
  load(jobId: string): Promise<{ status: LookupJobStreamStatus; failedAttempts: number; lookUp: (signal?: AbortSignal) => Promise<Result> }>;
  complete(jobId: string, result: Result, now: string, context: CommandContext): Promise<LookupJobStatus>;
  fail(jobId: string, error: string, errorCode: DownloadErrorCode | null, now: string, context: CommandContext): Promise<LookupJobStatus>;
  /** Spends the job's attempt number `attempt`, once however often it is reported. */
  recordAttemptFailure(jobId: string, attempt: number, error: string, errorCode: DownloadErrorCode | null, now: string, context: CommandContext): Promise<void>;
  /** Closes a stream that was never written; answers the stream's status afterwards. */
  abandon(jobId: string, accountId: string, now: string, context: CommandContext): Promise<LookupJobStreamStatus>;
}
