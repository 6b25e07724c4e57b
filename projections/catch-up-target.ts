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

/** Events scanned per check while looking for a target that nothing follows yet. */
const SCAN_LIMIT = 1_000;

/**
 * "Every event at or before `target` that passes the filter is handled",
 * decided with opaque positions that compare only by equality; the store's
 * own order answers what comes after what.
 *
 * A store may hide recent events from readers for a while (the PostgreSQL
 * store shows nothing past a transaction still in progress), and what it
 * shows is always a prefix of its order. So the target first has to be seen:
 * it is once anything after it shows, or it shows itself after the
 * checkpoint. Then, with E the first matching event after the checkpoint and
 * F the first matching event after the target, nothing matching is pending up
 * to the target exactly when there is no E, or E is F, or F was already
 * handled. A null target means "everything the store shows now": reached
 * when there is no E, which says nothing about events it still hides.
 */
export class CatchUpTarget {
  private targetSeen = false;
  private firstAfterTarget: Checkpoint | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly filter: EventFilter,
    readonly target: Checkpoint | null,
  ) {}

  async isReachedBy(checkpoint: Checkpoint | null, wasHandled: (position: Checkpoint) => boolean): Promise<boolean> {
    const { target } = this;
    if (target !== null) {
      if (checkpoint === target || wasHandled(target)) return true;
      this.targetSeen ||= (await this.firstAfter(target, undefined)) !== null || (await this.showsAfter(checkpoint, target));
      if (!this.targetSeen) return false;
    }
    const pending = await this.firstAfter(checkpoint, this.filter);
    if (pending === null) return true;
    if (target === null) return false;
    // Once the target is seen, F is stable: the store never shows anything new before what it already shows.
    this.firstAfterTarget ??= await this.firstAfter(target, this.filter);
    if (this.firstAfterTarget === null) return false;
    return pending === this.firstAfterTarget || wasHandled(this.firstAfterTarget);
  }

  private async firstAfter(position: Checkpoint | null, filter: EventFilter | undefined): Promise<Checkpoint | null> {
    const [event] = await this.store.readAll({ after: position, filter, maxCount: 1 });
    return event?.position ?? null;
  }

  /**
   * Whether `target` shows among the first events after `checkpoint`. Only
   * asked while nothing shows after the target, so when found it is the last
   * event shown and the scan is as long as the processor's lag; past
   * SCAN_LIMIT the answer is "not yet", and a later check, nearer, finds it.
   */
  private async showsAfter(checkpoint: Checkpoint | null, target: Checkpoint): Promise<boolean> {
    let after = checkpoint;
    for (let scanned = 0; scanned < SCAN_LIMIT; ) {
      const events = await this.store.readAll({ after, maxCount: Math.min(250, SCAN_LIMIT - scanned) });
      if (events.some((event) => event.position === target)) return true;
      if (events.length === 0) return false;
      scanned += events.length;
      after = events[events.length - 1].position;
    }
    return false;
  }
}
