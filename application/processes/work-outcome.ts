/** What a worker tells the queue after handling a message. */
export type WorkOutcome = { kind: 'done' } | { kind: 'retry'; afterMs: number };

export const DONE: WorkOutcome = { kind: 'done' };

export interface Delivery {
  /** 1 for the first delivery of the message. */
  attempt: number;
  /** Keeps the message from being redelivered while long work runs. */
  heartbeat(): void;
  signal?: AbortSignal;
}
