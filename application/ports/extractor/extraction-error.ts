import type { DownloadErrorCode } from '../../../domain/download-error-code.js';

/**
 * A failure the extractor recognised, whichever capability met it. `code` is null for failures it could not classify
 * (treated as transient, retried); `message` is safe to show.
 */
export class ExtractionError extends Error {
  constructor(
    readonly code: DownloadErrorCode | null,
    message: string,
    /** The extractor's own words, for logs and the `details` of a 500. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}
