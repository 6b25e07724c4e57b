import type { DomainEvent } from '../decider.js';
import type { DownloadErrorCode } from '../download-error-code.js';

/** What every lookup job is requested with; each kind adds its own details. */
export interface LookupJobRequest {
  jobId: string;
  accountId: string;
  /** As submitted; the job's result reports it back. */
  url: string;
  requestedAt: string;
  expiresAt: string;
}

/** Admitted (its account reservation is already recorded); kept for polling until `expiresAt`. */
export type LookupJobRequested<Name extends string, Details> = DomainEvent<
  `${Name}Requested`,
  LookupJobRequest & Details
>;

export type LookupJobSucceeded<Name extends string, Result> = DomainEvent<
  `${Name}Succeeded`,
  { jobId: string; accountId: string; result: Result; succeededAt: string }
>;

/** Clients see `error` only; `errorCode` (null when unrecognised) is for operators and auditors. */
export type LookupJobFailed<Name extends string> = DomainEvent<
  `${Name}Failed`,
  { jobId: string; accountId: string; error: string; errorCode: DownloadErrorCode | null; failedAt: string }
>;

/**
 * A lookup attempt ended in a failure worth retrying; the job stays pending
 * for its next attempt. Counted here, so that only the extractor's failures
 * spend the job's attempts, never the service's own outages.
 */
export type LookupJobAttemptFailed<Name extends string> = DomainEvent<
  `${Name}AttemptFailed`,
  {
    jobId: string;
    accountId: string;
    attempt: number;
    error: string;
    errorCode: DownloadErrorCode | null;
    failedAt: string;
  }
>;

/**
 * The submission did not write its job within the grace period, so its
 * reservation is released; written only to a stream that does not exist yet,
 * it keeps the late submission from creating the job afterwards.
 */
export type LookupJobAbandoned<Name extends string> = DomainEvent<
  `${Name}Abandoned`,
  { jobId: string; accountId: string; abandonedAt: string }
>;

export type LookupJobEvent<Name extends string, Details, Result> =
  | LookupJobRequested<Name, Details>
  | LookupJobSucceeded<Name, Result>
  | LookupJobFailed<Name>
  | LookupJobAttemptFailed<Name>
  | LookupJobAbandoned<Name>;
