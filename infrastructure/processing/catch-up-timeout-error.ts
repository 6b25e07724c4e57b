import type { Checkpoint } from '../../application/ports/event-store.js';

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
