import {
  type AppendResult,
  DuplicateEventError,
  type EventToAppend,
  type ExpectedRevision,
} from '../../application/ports/event-store.js';

export interface StoredEventPlace {
  id: string;
  streamName: string;
  revision: number;
  position: string;
}

/**
 * The port's rule for event ids that are already stored (`found`, in any
 * order): the result of the append they repeat, or DuplicateEventError.
 * Null when none of the ids is stored, so the append goes ahead.
 */
export function repeatedAppendResult(
  streamName: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  found: readonly StoredEventPlace[],
): AppendResult | null {
  if (found.length === 0) return null;
  const byId = new Map(found.map((place) => [place.id, place]));
  const places = events.map((event) => byId.get(event.id));
  const first = places[0];
  const repeats =
    first !== undefined &&
    places.every(
      (place, index) =>
        place !== undefined && place.streamName === streamName && place.revision === first.revision + index,
    ) &&
    (expected === 'any' ||
      expected === 'stream_exists' ||
      first.revision === (expected === 'no_stream' ? 0 : expected + 1));
  if (!repeats) throw new DuplicateEventError(events.find((event) => byId.has(event.id))?.id ?? found[0].id);
  const last = places[places.length - 1] as StoredEventPlace;
  return { nextExpectedRevision: last.revision, position: last.position };
}
