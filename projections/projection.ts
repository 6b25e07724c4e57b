import type { Knex } from 'knex';
import type { EventFilter, RecordedEvent } from '../application/ports/event-store.js';

/**
 * A read model kept up to date from the event store. The runner calls `apply`
 * inside the transaction that also moves the projection's checkpoint, so a
 * batch is either fully applied and checkpointed or not at all.
 */
export interface Projection {
  /** Unique among projections and relays: names the checkpoint row and the advisory lock. */
  readonly name: string;
  readonly filter: EventFilter;
  /** Built anew by a rebuild (as copies, swapped in when the replay is done). */
  readonly tables: readonly string[];
  apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void>;
}
