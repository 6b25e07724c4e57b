import type { Knex } from 'knex';
import type { Checkpoint, RecordedEvent } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import type { BatchHandler } from './batch-handler.js';
import { type RetryPolicy, commitBatchWithRetries } from './commit-batch.js';

export interface CheckpointCommitsOptions {
  readonly db: Knex;
  readonly handler: BatchHandler;
  readonly logger: Logger;
  readonly retry?: RetryPolicy;
  /** Ends the retries of a batch under way, and stores no deferred position after it. */
  readonly halt: AbortSignal;
  /** The stored checkpoint the subscription started from. */
  readonly from: Checkpoint | null;
  /** The least time between two stores of a position that no event came with. */
  readonly watermarkIntervalMs: number;
  /** Told of each failed attempt at a batch. */
  readonly onFailure: () => void;
  /** Told of each checkpoint stored. */
  readonly onCommitted: () => void;
}

/**
 * Stores a processor's checkpoint as one subscription's pages come, through one chain, so a batch and a trailing
 * watermark never race on it. Skipped events move the watermark too, at a bounded rate, and never hold up the events
 * that follow them: a position that is not stored now is stored when the interval ends, unless a batch stores a later
 * one first.
 */
export class CheckpointCommits {
  private checkpoint: Checkpoint | null;
  private chain: Promise<unknown> = Promise.resolve();
  private watermarkStoredAt = 0;
  private pendingWatermark: Checkpoint | null = null;
  private trailingTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: CheckpointCommitsOptions) {
    this.checkpoint = options.from;
  }

  /** Stores a page's events and the position it scanned to; false once reading should stop (halted meanwhile). */
  async store(events: RecordedEvent[], scannedTo: Checkpoint): Promise<boolean> {
    if (events.length === 0) {
      const wait = this.watermarkStoredAt + this.options.watermarkIntervalMs - Date.now();
      if (wait > 0) {
        this.pendingWatermark = scannedTo;
        this.trailingTimer ??= setTimeout(() => this.storePendingWatermark(), wait);
        return true;
      }
      this.watermarkStoredAt = Date.now();
    }
    this.pendingWatermark = null;
    return (await this.commit(events, scannedTo)) !== null;
  }

  /** Drops a position waiting for its interval: the subscription that scanned it is ending. */
  cancelTrailing(): void {
    if (this.trailingTimer !== null) clearTimeout(this.trailingTimer);
    this.trailingTimer = null;
  }

  /** Resolves once every store begun has ended. */
  async drained(): Promise<void> {
    await this.chain;
  }

  private storePendingWatermark(): void {
    this.trailingTimer = null;
    const next = this.pendingWatermark;
    this.pendingWatermark = null;
    if (next === null || this.options.halt.aborted) return;
    this.watermarkStoredAt = Date.now();
    this.commit([], next).catch((error: unknown) =>
      this.options.logger.warn(
        { processor: this.options.handler.name, err: error },
        'Could not store the scanned position; the next batch will',
      ),
    );
  }

  private commit(events: RecordedEvent[], next: Checkpoint): Promise<Checkpoint | null> {
    const { db, handler, logger, retry, halt, onFailure, onCommitted } = this.options;
    const run = this.chain.then(async () => {
      const committed = await commitBatchWithRetries(db, handler, this.checkpoint, events, {
        logger,
        retry,
        signal: halt,
        next,
        onFailure,
      });
      if (committed !== null) {
        this.checkpoint = committed;
        onCommitted();
      }
      return committed;
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}
