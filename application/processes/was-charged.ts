import { ACCOUNT_CATEGORY } from '../../domain/account/decider.js';
import { streamName } from '../../domain/stream-name.js';
import type { EventStore } from '../ports/event-store.js';

const PAGE = 200;

/**
 * Whether the account already holds a charge of this job or lookup, read
 * backwards from the newest event and stopping at its reservation, which
 * comes before any charge of it: a redelivery, whose charge is recent, reads
 * a page or two instead of the whole history that an account stream grows to.
 */
export async function wasCharged(
  store: EventStore,
  accountId: string,
  charge: { chargedType: string; reservedType: string; idField: 'jobId' | 'lookupId'; id: string },
): Promise<boolean> {
  const stream = streamName(ACCOUNT_CATEGORY, accountId);
  let from: number | undefined;
  for (;;) {
    const page = await store.readStream(stream, {
      direction: 'backwards',
      maxCount: PAGE,
      ...(from === undefined ? {} : { fromRevision: from }),
    });
    for (const event of page) {
      if (event.data[charge.idField] !== charge.id) continue;
      if (event.type === charge.chargedType) return true;
      if (event.type === charge.reservedType) return false;
    }
    const oldest = page.at(-1);
    if (page.length < PAGE || oldest === undefined || oldest.revision === 0) return false;
    from = oldest.revision - 1;
  }
}
