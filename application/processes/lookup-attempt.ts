import { type DownloadErrorCode, isFinalErrorCode } from '../../domain/download-error-code.js';
import { ExtractionError } from '../ports/extractor/extraction-error.js';

export interface LookupRetryOptions {
  /** Attempts per job that may end in a failure worth retrying (counted in the job's stream). */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

export type LookupAttempt<T> =
  | { kind: 'success'; value: T }
  | { kind: 'failed'; error: string; errorCode: DownloadErrorCode | null; detail?: string }
  | { kind: 'retry'; afterMs: number; error: string; errorCode: DownloadErrorCode | null; detail?: string };

/**
 * One extractor attempt of a lookup job. A final condition fails the job at
 * once; a transient or unrecognised one is retried with backoff, and when the
 * attempts run out the job fails with what was last seen: its code when it
 * was recognised (NETWORK_ERROR included), none when it was not.
 *
 * A lookup stopped by `signal` (its delivery lapsed, or the worker is shutting
 * down) says nothing about the video: the error is thrown, so the message is
 * delivered again and no attempt is spent.
 */
export async function attemptLookup<T>(
  work: () => Promise<T>,
  attempt: number,
  options: LookupRetryOptions,
  signal?: AbortSignal,
): Promise<LookupAttempt<T>> {
  try {
    return { kind: 'success', value: await work() };
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const errorCode = error instanceof ExtractionError ? error.code : null;
    const message = error instanceof ExtractionError ? error.message : 'The lookup failed on the service side';
    // The extractor's own output, for the operator's log only.
    const detail = error instanceof ExtractionError ? error.details : undefined;
    if ((errorCode !== null && isFinalErrorCode(errorCode)) || attempt >= options.maxAttempts)
      return { kind: 'failed', error: message, errorCode, detail };
    const afterMs = Math.min(options.retryMaxDelayMs, options.retryBaseDelayMs * 2 ** (attempt - 1));
    return { kind: 'retry', afterMs, error: error instanceof Error ? error.message : String(error), errorCode, detail };
  }
}
