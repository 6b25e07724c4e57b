import type { EventFilter, RecordedEvent } from '../../application/ports/event-store.js';

/** The port's filter, for adapters that filter in this process. */
export function matchesFilter(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (filter?.eventTypes !== undefined && !filter.eventTypes.includes(event.type)) return false;
  if (
    filter?.streamPrefixes !== undefined &&
    !filter.streamPrefixes.some((prefix) => event.streamName.startsWith(prefix))
  )
    return false;
  return true;
}
