import type { Knex } from 'knex';
import type { EventFilter, RecordedEvent } from '../../application/ports/event-store.js';

/**
 * What a checkpointed processor does with each batch of events. A projection
 * writes its tables in `apply`; a relay publishes in `deliver`. Either way the
 * checkpoint moves only after both succeeded.
 */
export interface BatchHandler {
  /** Unique among processors: names the checkpoint row and the advisory lock. */
  readonly name: string;
  readonly filter: EventFilter;
  /**
   * Effects outside Postgres, done before the checkpoint transaction. A crash
   * between the two repeats them, so the receiving side must deduplicate.
   */
  deliver?(events: RecordedEvent[]): Promise<void>;
  /** Writes committed in the same transaction as the checkpoint. */
  apply?(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void>;
}

/** The advisory lock that keeps a processor to one active instance. */
export function processorLockKey(name: string): string {
  return `projection:${name}`;
}
