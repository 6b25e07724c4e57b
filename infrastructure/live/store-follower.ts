import type {
  Checkpoint,
  EventFilter,
  EventStore,
  RecordedEvent,
  Subscription,
} from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../processing/commit-batch.js';
import { sleep } from '../system/sleep.js';
import { BackgroundLoop } from '../system/background-loop.js';

export interface StoreFollowerOptions {
  /** Named in the log. */
  name: string;
  store: EventStore;
  filter: EventFilter;
  /** Where to begin (exclusive); null for the store's beginning. */
  after: Checkpoint | null;
  onEvents(events: readonly RecordedEvent[]): void;
  logger: Logger;
  retry?: RetryPolicy;
}

/**
 * Follows the event store without a stored checkpoint, for a reader that lives
 * only as long as its process. Whatever ends its subscription (a connection the
 * database dropped, a failover) it subscribes again from the last position it
 * scanned to, after a pause that grows while the store keeps failing, so no
 * event is skipped. `following` is false from a failure until the store answers
 * again, for readiness.
 */
export class StoreFollower extends BackgroundLoop {
  private position: Checkpoint | null;
  private failing = false;
  /** How many times the store was lost: what was heard before a loss may have missed events. */
  private losses = 0;

  constructor(private readonly options: StoreFollowerOptions) {
    super();
    this.position = options.after;
  }

  get following(): boolean {
    return !this.failing;
  }

  /** Which unbroken stretch of following this is (it changes at every loss of the store); null while not following. */
  get followingStretch(): number | null {
    return this.failing ? null : this.losses;
  }

  protected async run(stop: AbortSignal): Promise<void> {
    const { logger, name, store } = this.options;
    let failures = 0;
    while (!stop.aborted) {
      try {
        // After a failure, ready again only once the store answers.
        if (this.failing) await store.headPosition();
        this.failing = false;
        await this.follow(stop);
        failures = 0;
      } catch (error) {
        if (stop.aborted) return;
        this.failing = true;
        this.losses += 1;
        failures += 1;
        logger.warn(
          { follower: name, failures, delayMs: this.pauseMs(failures), err: error },
          'lost the event store; following it again from where it was',
        );
      }
      // A subscription that failed, or ended without being closed, is opened again after a pause.
      await sleep(this.pauseMs(failures), stop);
    }
  }

  private pauseMs(failures: number): number {
    const retry = this.options.retry ?? DEFAULT_RETRY_POLICY;
    return Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), 20));
  }

  private async follow(stop: AbortSignal): Promise<void> {
    const subscription: Subscription = this.options.store.subscribeToAll({
      after: this.position,
      filter: this.options.filter,
    });
    const close = () => void subscription.close().catch(() => undefined);
    stop.addEventListener('abort', close, { once: true });
    // Stopped while subscribing: the listener came too late to hear it.
    if (stop.aborted) close();
    try {
      for await (const page of subscription) {
        this.failing = false;
        if (page.events.length > 0) this.options.onEvents(page.events);
        this.position = page.scannedTo;
      }
    } finally {
      stop.removeEventListener('abort', close);
      await subscription.close().catch(() => undefined);
    }
  }
}
