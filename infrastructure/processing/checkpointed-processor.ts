import type { Knex } from 'knex';
import type { Checkpoint, EventStore, Subscription } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { type BatchHandler, processorLockKey } from './batch-handler.js';
import { CatchUpTimeoutError } from './catch-up-timeout-error.js';
import { ensureCheckpointTable } from './checkpoint-schema.js';
import { CheckpointConflictError, loadCheckpoint, readCheckpoint } from './checkpoint-store.js';
import { CheckpointCommits } from './checkpoint-commits.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './commit-batch.js';
import { type AcquireLock, acquireSessionLock } from '../postgres/session-advisory-lock.js';
import { sleep } from '../system/sleep.js';

export interface CheckpointedProcessorOptions {
  db: Knex;
  store: EventStore;
  /** Opens the dedicated connection that holds the advisory lock. */
  connectionString: string;
  /** Default: a session advisory lock on a connection of its own to `connectionString`. */
  acquireLock?: AcquireLock;
  logger: Logger;
  /** Events per batch, and so per checkpoint transaction. Default 100. */
  batchSize?: number;
  /** How often a standby instance tries to take over. Default 500 ms. */
  lockRetryMs?: number;
  retry?: RetryPolicy;
  /** How often waiters re-check when no local batch wakes them (standby, filtered-out targets). Default 250 ms. */
  catchUpPollMs?: number;
  /**
   * The least time between two stores of a scan position that no event came
   * with (the store moved on with events this processor skips). Default 100 ms.
   */
  watermarkIntervalMs?: number;
}

export interface WaitOptions {
  /** Default 30 s; then CatchUpTimeoutError. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Follows the event store from a checkpoint kept in Postgres and hands each batch to a BatchHandler; the checkpoint
 * moves by compare-and-set in the batch's transaction. Only the instance holding the processor's advisory lock works;
 * the others take over when its connection goes away. The checkpoint is a watermark (scanned to, including events the
 * filter skips), so any instance can tell whether a position is handled by comparing it with the stored one.
 */
export class CheckpointedProcessor {
  private readonly commitListeners = new Set<() => void>();
  private stopController: AbortController | null = null;
  private running: Promise<void> | null = null;
  private active = false;
  private failing = false;
  /** The subscription this instance follows while it holds the lock; a caller waiting for the checkpoint nudges it. */
  private subscription: Subscription | null = null;

  constructor(
    readonly handler: BatchHandler,
    private readonly options: CheckpointedProcessorOptions,
  ) {}

  get name(): string {
    return this.handler.name;
  }

  /**
   * True while this instance holds the lock but cannot process: from a failure (a batch, the subscription, the store
   * out of reach) until it works again. A standby is not failing: the instance that holds the lock does the work.
   */
  get isFailing(): boolean {
    return this.failing && this.active;
  }

  /** True while this instance holds the lock and processes events. */
  get isActive(): boolean {
    return this.active;
  }

  /** Returns once the checkpoint table exists; processing goes on in the background. */
  async start(): Promise<void> {
    if (this.running !== null) return;
    await ensureCheckpointTable(this.options.db);
    const stop = new AbortController();
    this.stopController = stop;
    this.running = this.run(stop.signal);
  }

  /** Lets the batch under way commit, then releases the lock. */
  async stop(): Promise<void> {
    this.stopController?.abort();
    await this.running;
    this.running = null;
    this.stopController = null;
  }

  /**
   * Resolves once every event at or before `target` that passes the filter
   * has been committed, by whichever instance is active. Without a target,
   * once every event committed before the call is handled.
   */
  async waitUntilCaughtUp(target: Checkpoint | null = null, options: WaitOptions = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const { store, db } = this.options;
    const goal = target ?? (await store.headPosition());
    if (goal === null) return;
    for (;;) {
      const committed = this.nextCommit();
      const checkpoint = await readCheckpoint(db, this.name);
      if (checkpoint !== null && store.compare(checkpoint, goal) >= 0) return;
      options.signal?.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) throw new CatchUpTimeoutError(this.name, target, timeoutMs);
      // Events this projection skips wake no idle subscription; read now, so its scanned position passes the goal.
      this.subscription?.nudge?.();
      await Promise.race([committed, sleep(Math.min(left, this.options.catchUpPollMs ?? 250), options.signal)]);
    }
  }

  private nextCommit(): Promise<void> {
    return new Promise((resolve) => {
      const listener = () => {
        this.commitListeners.delete(listener);
        resolve();
      };
      this.commitListeners.add(listener);
      setTimeout(listener, this.options.catchUpPollMs ?? 250).unref();
    });
  }

  private async run(stop: AbortSignal): Promise<void> {
    const { logger } = this.options;
    const retry = this.options.retry ?? DEFAULT_RETRY_POLICY;
    let failures = 0;
    while (!stop.aborted) {
      const lock = await (this.options.acquireLock ?? acquireSessionLock)({
        connectionString: this.options.connectionString,
        key: processorLockKey(this.name),
        logger,
        retryMs: this.options.lockRetryMs,
        signal: stop,
      });
      if (lock === null) return;
      this.active = true;
      try {
        await this.followWhileHolding(AbortSignal.any([stop, lock.lost]));
        failures = 0;
      } catch (error) {
        failures += 1;
        this.failing = true;
        const delayMs = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** (failures - 1));
        logger.error(
          { processor: this.name, failures, delayMs, err: error },
          'Processor failed; restarting from its stored checkpoint',
        );
        await sleep(delayMs, stop);
      } finally {
        this.active = false;
        await lock.release();
      }
    }
  }

  /** Follows the store, one subscription after another, until `halt`. */
  private async followWhileHolding(halt: AbortSignal): Promise<void> {
    while (!halt.aborted) await this.followOneSubscription(halt);
  }

  /** Reads from the stored checkpoint until the subscription ends, the checkpoint moves under this instance, or `halt`. */
  private async followOneSubscription(halt: AbortSignal): Promise<void> {
    const { db, store, logger } = this.options;
    const checkpoint = await loadCheckpoint(db, this.name);
    // The store's database answers again; a batch that fails again says so.
    this.failing = false;
    logger.info({ processor: this.name, checkpoint }, 'Processing from checkpoint');
    const batchSize = this.options.batchSize ?? 100;
    const subscription = store.subscribeToAll({ after: checkpoint, filter: this.handler.filter, batchSize });
    this.subscription = subscription;
    // Ends a subscription that is waiting for new events; a batch in hand still commits.
    const close = () => void subscription.close().catch(() => undefined);
    halt.addEventListener('abort', close, { once: true });
    // Stopped while the checkpoint was being read: the listener came too late to hear it.
    if (halt.aborted) close();
    const commits = this.checkpointCommits(checkpoint, halt);
    try {
      for await (const { events, scannedTo } of subscription) {
        if (!(await commits.store(events, scannedTo)) || halt.aborted) return;
      }
      // A subscription should only end when closed; pause before opening another.
      await sleep((this.options.retry ?? DEFAULT_RETRY_POLICY).initialDelayMs, halt);
    } catch (error) {
      if (halt.aborted) return;
      if (!(error instanceof CheckpointConflictError)) throw error;
      logger.warn(
        { processor: this.name, expected: error.expected },
        'Checkpoint moved under this instance; restarting from the stored one',
      );
    } finally {
      commits.cancelTrailing();
      halt.removeEventListener('abort', close);
      if (this.subscription === subscription) this.subscription = null;
      await subscription.close().catch(() => undefined);
      await commits.drained();
    }
  }

  /** Where one subscription's pages are stored; each store wakes the callers waiting for the checkpoint. */
  private checkpointCommits(from: Checkpoint | null, halt: AbortSignal): CheckpointCommits {
    const { db, logger, retry } = this.options;
    return new CheckpointCommits({
      db,
      handler: this.handler,
      logger,
      retry,
      halt,
      from,
      watermarkIntervalMs: this.options.watermarkIntervalMs ?? 100,
      onFailure: () => {
        this.failing = true;
      },
      onCommitted: () => {
        this.failing = false;
        for (const listener of [...this.commitListeners]) listener();
      },
    });
  }
}
