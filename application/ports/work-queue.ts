import type { Checkpoint, EventFilter, RecordedEvent } from './event-store.js';

/** One delivery of a message to a handler. */
export interface WorkItem {
  subject: string;
  /** The message body, parsed as JSON. */
  data: unknown;
  /** 1 on the first delivery, as the queue counts; a count may repeat, so it does not tell deliveries apart. */
  deliveryCount: number;
  /** Names the message, the same on each of its deliveries. */
  messageId: string;
  /** Names this delivery of this message, unlike any other delivery. */
  deliveryId: string;
  /**
   * No delivery follows this one whatever the handler answers: fail the job
   * with a code now, or it stays stuck.
   */
  isLastAttempt: boolean;
  /**
   * Reports progress. The ack wait is extended (at most every `heartbeatMs`)
   * only after progress, so a hung handler is redelivered.
   */
  heartbeat(): void;
  /**
   * Aborts when a stopping consumer gave up waiting and handed the message
   * back, or when no progress was confirmed for a whole ack wait: the message
   * is then redelivered elsewhere, and this handler must stop.
   */
  signal: AbortSignal;
}

/** Done; deliver again after a delay; or never deliver again. */
export type WorkResult = 'ack' | { retryAfterMs: number } | 'terminate';

export type WorkHandler = (item: WorkItem) => Promise<WorkResult>;

export interface RelayedMessage {
  subject: string;
  /** Sent as JSON. */
  payload: unknown;
}

/** The messages an event sets off; [] for events that set off none. Must be deterministic, since message ids derive from its output. */
export type EventRoute = (event: RecordedEvent) => readonly RelayedMessage[];

export interface WorkRelayOptions {
  route: EventRoute;
  /** Narrows what is read from the store; events outside it are never routed. Default: all events. */
  filter?: EventFilter;
  /** Its checkpoint and lock. Default `relay:work`. */
  name?: string;
}

/** Turns events into queued work, at least once and in store order; one instance is active at a time. */
export interface WorkRelay {
  readonly isActive: boolean;
  /** True while the active instance cannot relay (it keeps trying): for readiness. */
  readonly isFailing: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every routed event at or before `target` (everything stored, when null) is queued. */
  waitUntilCaughtUp(target?: Checkpoint | null, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<void>;
}

export interface WorkConsumerOptions {
  /** One subject per consumer. */
  subject: string;
  handler: WorkHandler;
  /** Messages handled at once by this instance. Default 1. */
  concurrency?: number;
  /** Deliveries per message, the first included. Default 5. */
  maxDeliver?: number;
  /** A message whose handler neither settles nor heartbeats for this long is delivered again. Default 30 s. */
  ackWaitMs?: number;
  /** Default a third of ackWaitMs. */
  heartbeatMs?: number;
  /** Redelivery delay after the handler throws, doubling per delivery. Default 1 s up to 60 s. */
  errorRetry?: { initialDelayMs: number; maxDelayMs: number };
  /** How long stop() lets handlers finish before handing their messages back. Default 30 s. */
  drainTimeoutMs?: number;
}

export interface WorkConsumer {
  start(): Promise<void>;
  /** False while this consumer cannot take work from the queue (it keeps trying): for readiness. */
  readonly taking: boolean;
  /** Waits for the handlers under way; those outliving the drain timeout are aborted and their messages handed back. */
  stop(): Promise<void>;
}

/**
 * A durable work queue: explicit acks, delayed retries, redelivery of a
 * message whose handler died or stopped heartbeating, bounded deliveries,
 * and nothing lost across restarts. The relay fills it from the event store;
 * consumers drain it, one subject each.
 */
export interface WorkQueue {
  /** Shown by /readyz and the start-up log. */
  readonly kind: 'jetstream' | 'in-process';
  relay(options: WorkRelayOptions): WorkRelay;
  consumer(options: WorkConsumerOptions): WorkConsumer;
  /** A channel every process of the service hears (unlike work, which one consumer takes); best effort, nothing is kept. */
  broadcast(channel: string): Broadcast;
  ping(): Promise<boolean>;
  /** Per subject: messages waiting for a worker, and those a worker holds. */
  depth(): Promise<QueueDepth[]>;
  /** Puts a dead letter's message back on its subject, once per `messageId` (a retried replay adds nothing). */
  requeue(subject: string, payload: unknown, messageId: string): Promise<void>;
  /** Closes the connection, if any; stop relays and consumers first. */
  close(): Promise<void>;
}

export interface QueueDepth {
  subject: string;
  waiting: number;
  running: number;
}

export interface Broadcast {
  publish(message: unknown): Promise<void>;
  /** `onMessage` gets each message published from then on, until stopped. */
  subscribe(onMessage: (message: unknown) => void): { stop(): Promise<void> };
}
