import type { Checkpoint } from '../../../application/ports/event-store.js';

/** A place in the global order: the appending transaction's id, then the global position. Both are 64-bit, so kept as decimal strings. */
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

/** Orders as the store does: by transaction id, then global position. */
export function comparePositions(a: PostgresPosition, b: PostgresPosition): number {
  const byTransaction = compareDecimal(a.transactionId, b.transactionId);
  return byTransaction !== 0 ? byTransaction : compareDecimal(a.globalPosition, b.globalPosition);
}

function compareDecimal(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
