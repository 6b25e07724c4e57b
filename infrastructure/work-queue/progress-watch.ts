import type { Logger } from '../../application/ports/logger.js';

export interface ProgressWatchOptions {
  ackWaitMs: number;
  heartbeatMs: number;
  /** Extends the ack wait; resolves once the queue has the extension. */
  extend(): Promise<void>;
  /** No progress was confirmed for a whole ack wait; called once, and the watch ends. */
  lapse(): void;
  log: Logger;
}

/**
 * Watches one delivery's progress. The ack wait is extended only after the handler reported progress, so a hung
 * handler is delivered again; and a delivery whose progress went unconfirmed by the queue for a whole ack wait has
 * lapsed, since its message is then given to another handler.
 */
export class ProgressWatch {
  private progressed = false;
  private confirmedAt = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: ProgressWatchOptions) {
    const { ackWaitMs, heartbeatMs } = options;
    // More often than the heartbeat when that is long, so that a lapse is noticed within a quarter of the ack wait.
    this.timer = setInterval(() => this.check(), Math.min(heartbeatMs, Math.max(50, Math.floor(ackWaitMs / 4))));
  }

  /** The handler made progress. */
  progress(): void {
    this.progressed = true;
  }

  end(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    this.extendAfterProgress();
    if (Date.now() - this.confirmedAt <= this.options.ackWaitMs) return;
    this.end();
    this.options.lapse();
  }

  private extendAfterProgress(): void {
    if (!this.progressed) return;
    this.progressed = false;
    const sentAt = Date.now();
    this.options.extend().then(
      () => {
        this.confirmedAt = Math.max(this.confirmedAt, sentAt);
      },
      (error: unknown) => this.options.log.warn({ err: error }, 'Could not extend the ack wait'),
    );
  }
}
