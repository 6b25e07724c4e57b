import type { DownloadErrorCode } from '../domain/download-error-code.js';

/** The video cannot be downloaded for a lasting reason found while looking it up: a 400 for the client. */
export class VideoNotDownloadableError extends Error {
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'VideoNotDownloadableError';
  }
}

/** The platform could not be asked right now, or answered in a way nobody recognised: a 500 with details. */
export class ExtractorUnavailableError extends Error {
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ExtractorUnavailableError';
  }
}
