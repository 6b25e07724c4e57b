import type { RecordedEvent } from '../../application/ports/event-store.js';

/** The event's id when it sets off one message, so the msgID is the eventId; `<id>:<index>` when several. */
export function relayMessageId(event: RecordedEvent, index: number, count: number): string {
  return count === 1 ? event.id : `${event.id}:${index}`;
}
