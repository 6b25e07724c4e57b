import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { LookupJobRequest } from '../../domain/lookup-job/events.js';
import type { LookupJobKind } from '../../domain/lookup-job/kind.js';
import { lookupJobCommandTypes } from '../../domain/lookup-job/names.js';
import type { LookupJobStatus } from '../../domain/lookup-job/status.js';
import type { CommandContext } from '../command-handler.js';
import type { LookupJobCommandHandler } from './lookup-job-commands.js';

/** A lookup job's stream as the processes see it: never written, abandoned before it was, or the job's own status. */
export type LookupJobStreamStatus = LookupJobStatus | 'none' | 'abandoned';

/** What the processes need of one kind of lookup job (info, client download), whose commands differ only in name. */
export interface LookupJobSteps<Result> {
  /** The job's status, its failed attempts and, while pending, the extractor call that answers it. */
  load(jobId: string): Promise<{
    status: LookupJobStreamStatus;
    failedAttempts: number;
    lookUp: (signal?: AbortSignal) => Promise<Result>;
  }>;
  complete(jobId: string, result: Result, now: string, context: CommandContext): Promise<LookupJobStatus>;
  fail(
    jobId: string,
    error: string,
    errorCode: DownloadErrorCode | null,
    now: string,
    context: CommandContext,
  ): Promise<LookupJobStatus>;
  /** Spends the job's attempt number `attempt`, once however often it is reported. */
  recordAttemptFailure(
    jobId: string,
    attempt: number,
    error: string,
    errorCode: DownloadErrorCode | null,
    now: string,
    context: CommandContext,
  ): Promise<void>;
  /** Closes a stream that was never written; answers the stream's status afterwards. */
  abandon(jobId: string, accountId: string, now: string, context: CommandContext): Promise<LookupJobStreamStatus>;
}

/** The extractor call that answers a kind's job, from what it was requested with. */
export type LookUp<Details, Result> = (request: LookupJobRequest & Details, signal?: AbortSignal) => Promise<Result>;

/** One kind's steps: its job streams, under its command names, and its own extractor call. */
export function lookupJobSteps<Name extends string, Details, Result>(
  kind: LookupJobKind<Name, Result>,
  jobs: LookupJobCommandHandler<Name, Details, Result>,
  lookUp: LookUp<Details, Result>,
): LookupJobSteps<Result> {
  const commands = lookupJobCommandTypes(kind.name);
  return {
    async load(jobId) {
      const { state } = await jobs.load(jobId);
      const written = state.status === 'none' || state.status === 'abandoned' ? null : state;
      return {
        status: state.status,
        failedAttempts: written?.failedAttempts ?? 0,
        async lookUp(signal) {
          if (written === null) throw new Error(`${kind.name} job ${jobId} not found`);
          return lookUp(written.request, signal);
        },
      };
    },
    async complete(jobId, result, now, context) {
      return (await jobs.handle(jobId, { type: commands.complete, data: { jobId, result, now } }, context)).state
        .status as 'success';
    },
    async fail(jobId, error, errorCode, now, context) {
      return (await jobs.handle(jobId, { type: commands.fail, data: { jobId, error, errorCode, now } }, context)).state
        .status as 'failed';
    },
    async recordAttemptFailure(jobId, attempt, error, errorCode, now, context) {
      await jobs.handle(
        jobId,
        { type: commands.recordAttemptFailure, data: { jobId, attempt, error, errorCode, now } },
        context,
      );
    },
    async abandon(jobId, accountId, now, context) {
      return (await jobs.handle(jobId, { type: commands.abandon, data: { jobId, accountId, now } }, context)).state
        .status;
    },
  };
}
