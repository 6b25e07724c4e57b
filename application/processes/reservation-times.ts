import { ACCOUNT_CATEGORY } from '../../domain/account/decider.js';
import { streamName } from '../../domain/stream-name.js';
import type { EventStore } from '../ports/event-store.js';

const PAGE = 500;

/**
 * When each of `pending` (reservations the account's folded state still
 * holds open) was made, read backwards from the account's newest event until
 * every one is found: the walk reaches back as far as the oldest open
 * reservation, not through an account's whole history.
 */
export async function reservationTimes(
  store: EventStore,
  accountId: string,
  pending: readonly string[],
  reservation: { type: string; idField: 'jobId' | 'lookupId' },
): Promise<Map<string, string>> {
  const wanted = new Set(pending);
  const found = new Map<string, string>();
  const stream = streamName(ACCOUNT_CATEGORY, accountId);
  let from: number | undefined;
  while (found.size < wanted.size) {
    const page = await store.readStream(stream, {
      direction: 'backwards',
      maxCount: PAGE,
      ...(from === undefined ? {} : { fromRevision: from }),
    });
    for (const event of page) {
      const id = event.data[reservation.idField];
      if (event.type === reservation.type && typeof id === 'string' && wanted.has(id) && !found.has(id))
        found.set(id, String(event.data.reservedAt));
    }
    const oldest = page.at(-1);
    if (page.length < PAGE || oldest === undefined || oldest.revision === 0) break;
    from = oldest.revision - 1;
  }
  return found;
}
