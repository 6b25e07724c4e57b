import type { Knex } from 'knex';
import type { Checkpoint, RecordedEvent } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import type { BatchHandler } from './batch-handler.js';
import { CheckpointConflictError, compareAndSetCheckpoint } from './checkpoint-store.js';
import { sleep } from '../system/sleep.js';

export interface RetryPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { initialDelayMs: 200, maxDelayMs: 10_000 };

/**
 * Hands one batch to the handler and moves the checkpoint from `previous` to
 * `next` (where the read that found the batch had scanned to; the batch's
 * last event by default) in the same transaction as the handler's writes. A
 * batch without events only moves the checkpoint.
 * Throws CheckpointConflictError, with nothing committed, when another
 * instance moved the checkpoint meanwhile.
 */
async function commitBatch(
  db: Knex,
  handler: BatchHandler,
  previous: Checkpoint | null,
  events: RecordedEvent[],
  next: Checkpoint = events[events.length - 1].position,
): Promise<Checkpoint> {
  if (handler.deliver && events.length > 0) await handler.deliver(events);
  await db.transaction(async (trx) => {
    if (handler.apply && events.length > 0) await handler.apply(trx, events);
    await compareAndSetCheckpoint(trx, handler.name, previous, next);
  });
  return next;
}

/**
 * commitBatch until it succeeds: a failing batch is retried with growing
 * delays, never skipped, because skipping would silently lose events.
 * Returns null when `signal` aborts before the batch committed; rethrows
 * checkpoint conflicts, which only a restart from the stored checkpoint fixes.
 */
export async function commitBatchWithRetries(
  db: Knex,
  handler: BatchHandler,
  previous: Checkpoint | null,
  events: RecordedEvent[],
  options: {
    logger: Logger;
    retry?: RetryPolicy;
    signal?: AbortSignal;
    next?: Checkpoint;
    /** Told of each failed attempt, before its pause. */
    onFailure?: () => void;
  },
): Promise<Checkpoint | null> {
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  for (let attempt = 1; ; attempt++) {
    try {
      return await commitBatch(db, handler, previous, events, options.next);
    } catch (error) {
      if (error instanceof CheckpointConflictError) throw error;
      const delayMs = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** (attempt - 1));
      options.logger.error(
        {
          processor: handler.name,
          attempt,
          delayMs,
          firstEventId: events[0]?.id,
          lastEventId: events[events.length - 1]?.id,
          err: error,
        },
        'Batch failed; retrying it',
      );
      options.onFailure?.();
      if (options.signal?.aborted) return null;
      await sleep(delayMs, options.signal);
      if (options.signal?.aborted) return null;
    }
  }
}
