/** What a worker tells the queue after handling a message. */
export type WorkOutcome = { kind: 'done' } | { kind: 'retry'; afterMs: number };

export const DONE: WorkOutcome = { kind: 'done' };

export interface Delivery {
  /** 1 for the first delivery of the message. */
  attempt: number;
  /** Names this delivery; a job's lease is held by one at a time. */
  leaseId: string;
  /** Names the queue message, the same on each of its deliveries. */
  messageId: string;
  /** Keeps the message from being redelivered while long work runs. */
  heartbeat(): void;
  signal?: AbortSignal;
}
