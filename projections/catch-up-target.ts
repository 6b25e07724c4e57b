import type { Checkpoint, EventFilter, EventStore } from '../application/ports/event-store.js';

/** A processor did not reach the awaited position in time. */
export class CatchUpTimeoutError extends Error {
  constructor(
    readonly processorName: string,
    readonly target: Checkpoint | null,
    readonly timeoutMs: number,
  ) {
    super(`${processorName} did not catch up with ${target ?? 'the end of the store'} within ${timeoutMs} ms`);
    this.name = 'CatchUpTimeoutError';
  }
}

/**
 * "Every event at or before `target` that passes the filter is handled",
 * decided with opaque positions that compare only by equality; the store's
 * own order answers what comes after what.
 *
 * Let E be the first matching event after the processor's checkpoint and F
 * the first matching event after the target. Nothing matching is pending up
 * to the target exactly when there is no E, or E is F, or F was already
 * handled. A null target means "everything stored now": reached when there
 * is no E.
 */
export class CatchUpTarget {
  private firstAfterTarget: Checkpoint | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly filter: EventFilter,
    readonly target: Checkpoint | null,
  ) {}

  async isReachedBy(checkpoint: Checkpoint | null, wasHandled: (position: Checkpoint) => boolean): Promise<boolean> {
    if (this.target !== null && wasHandled(this.target)) return true;
    const pending = await this.firstAfter(checkpoint);
    if (pending === null) return true;
    if (this.target === null) return false;
    // Read after E: an F still missing then means E lies at or before the target.
    // Once seen, F is stable, because the store never inserts before what it already showed.
    this.firstAfterTarget ??= await this.firstAfter(this.target);
    if (this.firstAfterTarget === null) return false;
    return pending === this.firstAfterTarget || wasHandled(this.firstAfterTarget);
  }

  private async firstAfter(position: Checkpoint | null): Promise<Checkpoint | null> {
    const [event] = await this.store.readAll({ after: position, filter: this.filter, maxCount: 1 });
    return event?.position ?? null;
  }
}
