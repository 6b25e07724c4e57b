import type { Knex } from 'knex';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumer, WorkConsumerOptions } from '../../application/ports/work-queue.js';
import { ConsumerLoop } from './consumer-loop.js';
import { consumerSettings } from './consumer-settings.js';
import { InProcessDeliveries } from './in-process-deliveries.js';

export interface InProcessWorkConsumerOptions extends WorkConsumerOptions {
  db: Knex;
  logger: Logger;
  /** Resolves when new work may be due (the relay committed some), or after `timeoutMs`. */
  waitForWork(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /**
   * The longest an idle consumer sleeps. It wakes at once for new work (the
   * relay announces it) and when the next row of its subject falls due (a
   * delayed retry, an expired lease), so this only bounds the wait for work
   * nobody announced. Default 500 ms.
   */
  pollIntervalMs?: number;
  /** Called when a delivery puts its row back (a retry, a hand-back), so consumers that sleep look again. */
  onRequeued?(): void;
  /** How often rows whose last delivery ended without a result are dead-lettered. Default 5 s. */
  deadLetterIntervalMs?: number;
}

/**
 * Drains one subject of the work_queue table through the shared consumer
 * loop. A delivery leases its row for the ack wait; heartbeats extend the
 * lease, and an expired lease (a handler that hangs, or a process that died)
 * makes the row deliverable again. A settlement only applies while its lease
 * token still holds, so a handler that outlived its lease cannot ack the
 * redelivered message. A row whose last allowed delivery ended without a
 * result is dead-lettered.
 */
export class InProcessWorkConsumer implements WorkConsumer {
  private readonly loop: ConsumerLoop;

  constructor(options: InProcessWorkConsumerOptions) {
    const { ackWaitMs, maxDeliver } = consumerSettings(options);
    const source = new InProcessDeliveries({
      db: options.db,
      logger: options.logger,
      scope: { subject: options.subject, ackWaitMs, maxDeliver },
      waitForWork: (timeoutMs, signal) => options.waitForWork(timeoutMs, signal),
      pollIntervalMs: options.pollIntervalMs ?? 500,
      onRequeued: () => options.onRequeued?.(),
      deadLetterIntervalMs: options.deadLetterIntervalMs ?? 5_000,
    });
    this.loop = new ConsumerLoop({ ...options, source });
  }

  get taking(): boolean {
    return this.loop.taking;
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
