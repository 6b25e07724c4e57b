import type { JetStreamClient } from 'nats';
import type { Checkpoint, EventFilter, RecordedEvent } from '../../application/ports/event-store.js';
import type { EventRoute, WorkRelay } from '../../application/ports/work-queue.js';
import { relayMessageId } from '../work-queue/relay-message-id.js';
import {
  CheckpointedProcessor,
  type CheckpointedProcessorOptions,
  type WaitOptions,
} from '../processing/checkpointed-processor.js';

export type { EventRoute };

/** The default relay's processor name: its checkpoint row and lock. */
export const RELAY_NAME = 'relay:work';

export interface EventRelayOptions extends CheckpointedProcessorOptions {
  js: JetStreamClient;
  route: EventRoute;
  /** Its checkpoint row and lock. Default `relay:work`. */
  name?: string;
  /** Narrows what is read from the store; events outside it are never routed. Default: all events. */
  filter?: EventFilter;
  /** How long to wait for each PubAck. Default 5 s. */
  publishTimeoutMs?: number;
}

/**
 * Forwards events to JetStream at least once, in store order: a batch's
 * messages are all acknowledged by the stream before the relay's checkpoint
 * moves past them. Repeats after a crash carry the same msgIDs, so the
 * stream's duplicate window drops them; later repeats reach the idempotent
 * deciders.
 */
export class EventRelay implements WorkRelay {
  private readonly processor: CheckpointedProcessor;

  constructor(options: EventRelayOptions) {
    const { js, route } = options;
    const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
    this.processor = new CheckpointedProcessor(
      {
        name: options.name ?? RELAY_NAME,
        filter: options.filter ?? {},
        async deliver(events: RecordedEvent[]): Promise<void> {
          const publishes = events.flatMap((event) =>
            route(event).map((message, index, all) =>
              // A duplicate PubAck resolves like any other: the stream already has the message.
              js.publish(message.subject, JSON.stringify(message.payload), {
                msgID: relayMessageId(event, index, all.length),
                timeout: publishTimeoutMs,
              }),
            ),
          );
          await Promise.all(publishes);
        },
      },
      options,
    );
  }

  get name(): string {
    return this.processor.name;
  }

  get isActive(): boolean {
    return this.processor.isActive;
  }

  get isFailing(): boolean {
    return this.processor.isFailing;
  }

  start(): Promise<void> {
    return this.processor.start();
  }

  stop(): Promise<void> {
    return this.processor.stop();
  }

  /** Resolves once every routed event at or before `target` is in the stream. */
  waitUntilCaughtUp(target: Checkpoint | null = null, options?: WaitOptions): Promise<void> {
    return this.processor.waitUntilCaughtUp(target, options);
  }
}
