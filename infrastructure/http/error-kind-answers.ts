import {
  ApplicationError,
  type ApplicationErrorKind,
  type ExtractorUnavailableError,
  type ListingsBusyError,
  type SubmissionsBusyError,
  type VideoNotDownloadableError,
} from '../../application/errors.js';
import { DomainError, type DomainErrorKind, type PendingDownloadsLimitError } from '../../domain/errors.js';

export type ErrorKind = DomainErrorKind | ApplicationErrorKind;

export interface ErrorResponse {
  status: number;
  error: string;
  details?: string;
  headers?: Record<string, string>;
}

/** The status of every kind: a new kind fails to compile until it has one. */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  rule_violation: 400,
  video_not_downloadable: 400,
  credit_limit_reached: 403,
  add_on_not_enabled: 403,
  account_refused: 403,
  not_found: 404,
  invalid_transition: 409,
  request_already_applied: 409,
  operator_scope: 403,
  idempotency_key_reused: 422,
  pending_downloads_limit: 429,
  submissions_busy: 429,
  listings_busy: 429,
  job_abandoned: 500,
  extractor_unavailable: 500,
  // Lease errors stay between workers; one that reaches a request is a fault like any other.
  lease_held: 500,
  lease_lost: 500,
};

type KindedError = DomainError | ApplicationError;
/** The errors whose answers read their fields, each known by its kind. */
type ErrorWithFields =
  | VideoNotDownloadableError
  | PendingDownloadsLimitError
  | SubmissionsBusyError
  | ListingsBusyError
  | ExtractorUnavailableError;
type ErrorOfKind<K extends ErrorKind> = K extends ErrorWithFields['kind']
  ? Extract<ErrorWithFields, { kind: K }>
  : KindedError;
type Answer = Omit<ErrorResponse, 'status'>;

/** Where the answer is more than the error's own message: a fixed text, a hidden one, details or headers. */
const ANSWER_OF_KIND: { [K in ErrorKind]?: (error: ErrorOfKind<K>) => Answer } = {
  video_not_downloadable: (error) => ({ error: error.message, details: error.code }),
  credit_limit_reached: () => ({ error: 'Credit limit reached' }),
  pending_downloads_limit: ({ pending, limit }) => ({
    error: `Too many downloads queued or in progress (${pending} of ${limit}); resubmit after some jobs reach COMPLETED or FAILED`,
    headers: { 'X-Pending-Downloads': String(pending), 'X-Pending-Downloads-Limit': String(limit) },
  }),
  submissions_busy: ({ message, retryAfterSeconds, pending, limit }) => ({
    error: message,
    headers: {
      'Retry-After': String(retryAfterSeconds),
      'X-Pending-Downloads': String(pending),
      'X-Pending-Downloads-Limit': String(limit),
    },
  }),
  listings_busy: (error) => ({ error: error.message, headers: { 'Retry-After': String(error.retryAfterSeconds) } }),
  // The extractor's own words (the platform's text, yt-dlp's advice) go to the log with the 500, never to the client.
  extractor_unavailable: (error) => ({ error: error.message }),
  lease_held: () => ({ error: 'Internal server error' }),
  lease_lost: () => ({ error: 'Internal server error' }),
};

/** The answer to a domain or application error, or undefined for any other error. */
export function answerOfKind(error: unknown): ErrorResponse | undefined {
  if (!(error instanceof DomainError) && !(error instanceof ApplicationError)) return undefined;
  // The map pairs each kind with its own error's rule; TypeScript cannot follow that pairing through an index.
  const rule = ANSWER_OF_KIND[error.kind] as ((error: KindedError) => Answer) | undefined;
  const answer = rule?.(error) ?? { error: error.message };
  return { status: STATUS_OF_KIND[error.kind], ...answer };
}
