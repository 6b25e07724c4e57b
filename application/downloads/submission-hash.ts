import { createHash } from 'node:crypto';
import type { SubmitDownloadInput } from './submit-download-input.js';

/**
 * What makes two submissions the same request for an Idempotency-Key: every
 * field that shapes the job, with the video's canonical URL rather than its spelling and absent
 * fields counted as null, so a retry that spells a default differently still matches.
 */
export function submissionHash(input: SubmitDownloadInput): string {
  const request = [
    input.videoUrl,
    input.format,
    input.startTime ?? null,
    input.endTime ?? null,
    input.language ?? null,
    input.webhookUrl ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}
