import type { Logger } from '../../application/ports/logger.js';
import type { WorkItem, WorkResult } from '../../application/ports/work-queue.js';

/** What becomes of a delivery: the handler's result, or handed back at once by a consumer that stops. */
export type Settlement = WorkResult | 'handback';

/** One delivery of a message, as a queue adapter took it; the consumer loop does the rest. */
export interface Delivery {
  /** What the handler is told of the message and of this delivery. */
  readonly message: Pick<WorkItem, 'subject' | 'data' | 'deliveryCount' | 'messageId' | 'deliveryId'>;
  /** Logs naming this delivery. */
  readonly log: Logger;
  /** Extends the ack wait; resolves once the queue has the extension, so that the progress counts as confirmed. */
  extend(): Promise<void>;
  /** Tells the queue; when this fails, the message is delivered again after the ack wait. */
  settle(settlement: Settlement): Promise<void>;
  /** No progress was confirmed for a whole ack wait: the queue is giving the message out again. */
  lapse?(): void;
}

/** Where a consumer loop takes its deliveries from. */
export interface DeliverySource {
  /** The next delivery, or null when none is there (yet); `stop` ends a wait under way early. */
  take(stop: AbortSignal): Promise<Delivery | null>;
  /** After `take` found nothing: waits until work may be there, unless `take` itself waited. */
  waitIdle?(stop: AbortSignal): Promise<void>;
  /** After `take` failed and the loop paused: gets ready to take again (makes a vanished consumer again, say). */
  recover?(): Promise<void>;
}
