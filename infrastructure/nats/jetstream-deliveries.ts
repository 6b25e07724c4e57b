import type { Consumer, JsMsg } from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import type { Delivery, DeliverySource } from '../work-queue/delivery.js';
import { jetStreamDelivery } from './jetstream-delivery.js';

export interface JetStreamDeliveriesOptions {
  logger: Logger;
  /** How long one pull waits for a message before another is sent. */
  pullExpiresMs: number;
  /** Makes the durable consumer again, or brings it up to date, and returns it. */
  durableConsumer(): Promise<Consumer>;
  /** Resolves once the server has an ack wait extension (see jetStreamDelivery). */
  confirmHeartbeat?: () => Promise<void>;
}

/** The messages of a durable pull consumer, pulled one at a time. */
export class JetStreamDeliveries implements DeliverySource {
  constructor(
    private consumer: Consumer,
    private readonly options: JetStreamDeliveriesOptions,
  ) {}

  async take(stop: AbortSignal): Promise<Delivery | null> {
    const message = await pullOne(this.consumer, this.options.pullExpiresMs, stop);
    return message === null ? null : jetStreamDelivery(message, this.options.logger, this.options.confirmHeartbeat);
  }

  /** The durable consumer may be gone (deleted, or a NATS server restarted without its storage): made again. */
  async recover(): Promise<void> {
    this.consumer = await this.options.durableConsumer();
  }
}

/**
 * One message, or null once `expires` passes or `stop` aborts. A fetch of one rather than `next()`: its pull can be
 * ended early, so stopping never waits out an idle pull, and the pull can last long.
 */
async function pullOne(consumer: Consumer, expires: number, stop: AbortSignal): Promise<JsMsg | null> {
  const pull = await consumer.fetch({ max_messages: 1, expires });
  const end = () => pull.stop();
  stop.addEventListener('abort', end, { once: true });
  // A stop that came while the pull was being sent has already fired.
  if (stop.aborted) end();
  try {
    for await (const message of pull) return message;
    return null;
  } finally {
    stop.removeEventListener('abort', end);
  }
}
