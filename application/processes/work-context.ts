import type { CommandContext } from '../command-handler.js';
import type { JobMessage } from './work-routing.js';

/**
 * Metadata for the commands a worker issues: caused by the event that set off
 * the work, in that event's correlation (the job, for messages that predate it).
 */
export function workContext(message: JobMessage): CommandContext {
  return {
    correlationId: message.correlationId ?? message.jobId,
    ...(message.eventId === undefined ? {} : { causationId: message.eventId }),
  };
}
