import type { MediaFormat } from '../../domain/media-format.js';

/** A download as submitted; kept apart so the submission hash and the use case share it without importing each other. */
export interface SubmitDownloadInput {
  accountId: string;
  /** As the client sent it (already checked against the platform's URL forms); the job reports it back. */
  url: string;
  /** The video's one canonical URL, which the extractor and the metadata cache see. */
  videoUrl: string;
  format: MediaFormat;
  startTime?: number;
  endTime?: number;
  language?: string;
  /** Already checked against the webhook URL policy. */
  webhookUrl?: string;
  correlationId?: string;
  /** A repeat within retention with the same request gets the first answer; with another request, IdempotencyKeyReusedError. */
  idempotencyKey?: string;
}
