import type { Checkpoint } from '../../../application/ports/event-store.js';

/** A position in the PostgreSQL store: the appending transaction's id, then the global position. */
export interface PostgresPosition {
  transactionId: string;
  globalPosition: string;
}

export function encodePosition(position: PostgresPosition): Checkpoint {
  return `${position.transactionId}:${position.globalPosition}`;
}

export function decodePosition(checkpoint: Checkpoint): PostgresPosition {
  const match = /^(\d+):(\d+)$/.exec(checkpoint);
  if (match === null) throw new Error(`Not a PostgreSQL event store checkpoint: ${checkpoint}`);
  return { transactionId: match[1], globalPosition: match[2] };
}
