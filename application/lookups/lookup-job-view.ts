import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { LookupJobState } from '../../domain/lookup-job/state.js';
import type { LookupJobStatus } from '../../domain/lookup-job/status.js';

export type LookupJobKind = 'info' | 'client-download';

/** An info or client-download job as polling clients see it, whichever source answered. */
export interface LookupJobView {
  jobId: string;
  accountId: string;
  kind: LookupJobKind;
  status: LookupJobStatus;
  url: string;
  /** The VideoInfo or ClientDownloadInfo of a successful job. */
  result: unknown;
  error: string | null;
  errorCode: DownloadErrorCode | null;
  createdAt: string;
  /** After this the job reads as missing. */
  expiresAt: string;
}

export interface LookupJobReadModel {
  get(kind: LookupJobKind, jobId: string): Promise<LookupJobView | null>;
}

/** The polling view of a job folded straight from its stream. */
export function lookupJobViewFromState(
  kind: LookupJobKind,
  state: LookupJobState<unknown, unknown>,
): LookupJobView | null {
  if (state.status === 'none' || state.status === 'abandoned') return null;
  const { request } = state;
  return {
    jobId: request.jobId,
    accountId: request.accountId,
    kind,
    status: state.status,
    url: request.url,
    result: state.result,
    error: state.error,
    errorCode: state.errorCode,
    createdAt: request.requestedAt,
    expiresAt: request.expiresAt,
  };
}
