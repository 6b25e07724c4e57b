import type { DownloadErrorCode } from '../domain/download-error-code.js';

/** Every kind of refusal a use case raises beyond the domain's own; the HTTP layer gives each kind its status code. */
export type ApplicationErrorKind =
  | 'video_not_downloadable'
  | 'extractor_unavailable'
  | 'submissions_busy'
  | 'listings_busy'
  | 'request_already_applied'
  | 'operator_scope';

/** A use case's refusal, named by its kind rather than by a transport's status code. */
export abstract class ApplicationError extends Error {
  abstract readonly kind: ApplicationErrorKind;
}

/** The video cannot be downloaded for a lasting reason found while looking it up: a 400 for the client. */
export class VideoNotDownloadableError extends ApplicationError {
  readonly kind = 'video_not_downloadable';
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'VideoNotDownloadableError';
  }
}

/** The platform could not be asked right now, or answered in a way nobody recognised: a 500; `details` (the extractor's output) is for the log. */
export class ExtractorUnavailableError extends ApplicationError {
  readonly kind = 'extractor_unavailable';
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ExtractorUnavailableError';
  }
}

/** Too many submissions are waiting for the platform (this account's, or everyone's): a 429 with Retry-After, refused before any lookup. */
export class SubmissionsBusyError extends ApplicationError {
  readonly kind = 'submissions_busy';
  constructor(
    readonly scope: 'requester' | 'everyone',
    readonly retryAfterSeconds: number,
    readonly pending: number,
    readonly limit: number,
  ) {
    super(
      scope === 'requester'
        ? 'Too many submissions of this account are waiting for the video platform; retry after a few seconds'
        : 'Too many submissions are waiting for the video platform; retry after a few seconds',
    );
    this.name = 'SubmissionsBusyError';
  }
}

/** Too many channel listings are under way (this account's, or everyone's): a 429 with Retry-After, refused before anything is reserved. */
export class ListingsBusyError extends ApplicationError {
  readonly kind = 'listings_busy';
  constructor(
    readonly scope: 'requester' | 'everyone',
    readonly retryAfterSeconds: number,
  ) {
    super(
      scope === 'requester'
        ? `Too many channel listings of this account are under way; retry after ${retryAfterSeconds} s`
        : `Too many channel listings are under way; retry after ${retryAfterSeconds} s`,
    );
    this.name = 'ListingsBusyError';
  }
}

/** A retried admin write whose first attempt was carried out, but whose answer was not kept (its process stopped in between). */
export class RequestAlreadyAppliedError extends ApplicationError {
  readonly kind = 'request_already_applied';
  constructor() {
    super(
      'This Idempotency-Key’s request was already carried out, but its answer was not kept; read the result instead',
    );
    this.name = 'RequestAlreadyAppliedError';
  }
}

/** A `read` operator token asked to write. */
export class OperatorScopeError extends ApplicationError {
  readonly kind = 'operator_scope';
  constructor() {
    super('This operator token may only read: writes need a token of scope write');
    this.name = 'OperatorScopeError';
  }
}
