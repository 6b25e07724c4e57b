import type { DownloadErrorCode } from '../download-error-code.js';
import type { LookupJobRequest } from './events.js';

export type RequestLookupJob<Name extends string, Details> = {
  type: `Request${Name}`;
  data: Omit<LookupJobRequest, 'requestedAt'> & Details & { now: string };
};
export type CompleteLookupJob<Name extends string, Result> = {
  type: `Complete${Name}`;
  data: { jobId: string; result: Result; now: string };
};
export type FailLookupJob<Name extends string> = {
  type: `Fail${Name}`;
  data: { jobId: string; error: string; errorCode: DownloadErrorCode | null; now: string };
};
/** `attempt`: the number the failed attempt had (the failures its worker saw, plus one); a second report of it changes nothing. */
export type RecordLookupJobAttemptFailure<Name extends string> = {
  type: `Record${Name}AttemptFailure`;
  data: { jobId: string; attempt: number; error: string; errorCode: DownloadErrorCode | null; now: string };
};
/** Only a job that was never written can be abandoned. */
export type AbandonLookupJob<Name extends string> = {
  type: `Abandon${Name}`;
  data: { jobId: string; accountId: string; now: string };
};

export type LookupJobCommand<Name extends string, Details, Result> =
  | RequestLookupJob<Name, Details>
  | CompleteLookupJob<Name, Result>
  | FailLookupJob<Name>
  | RecordLookupJobAttemptFailure<Name>
  | AbandonLookupJob<Name>;
