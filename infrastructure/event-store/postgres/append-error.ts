import {
  type AppendOptions,
  DuplicateEventError,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';
import { EVENT_ID_CONSTRAINT, STREAM_REVISION_CONSTRAINT } from './schema.js';

const UNIQUE_VIOLATION = '23505';

/**
 * The port's error for a failed append. The lock taken first makes both
 * unique violations rare: a revision clash needs a writer that skipped the
 * lock, and an id clash a retried append.
 */
export async function toAppendError(
  error: unknown,
  streamName: string,
  options: AppendOptions,
  readRevision: () => Promise<number>,
): Promise<unknown> {
  if (!isUniqueViolation(error)) return error;
  if (error.constraint === EVENT_ID_CONSTRAINT) {
    const eventId = /\(event_id\)=\(([^)]+)\)/.exec(error.detail ?? '')?.[1] ?? 'unknown';
    return new DuplicateEventError(eventId);
  }
  if (error.constraint === STREAM_REVISION_CONSTRAINT) {
    const actual = await readRevision().catch(() => -1);
    return new WrongExpectedRevisionError(streamName, options.expectedRevision, actual);
  }
  return error;
}

function isUniqueViolation(error: unknown): error is { code: string; constraint?: string; detail?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}
