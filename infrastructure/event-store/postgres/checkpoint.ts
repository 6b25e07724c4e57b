import type { Checkpoint } from '../../../application/ports/event-store.js';

/**
 * A place in the global order: the order epoch (bumped when the server's
 * transaction counter can no longer be trusted, e.g. after a restore), the
 * appending transaction's id, then the global position. The ids are 64-bit,
 * so kept as decimal strings.
 */
export interface PostgresPosition {
  epoch?: number;
  transactionId: string;
  globalPosition: string;
}

/** `<xid>:<position>` in epoch 0, as before epochs existed; `<epoch>:<xid>:<position>` after. */
export function encodePosition(position: PostgresPosition): Checkpoint {
  const epoch = position.epoch ?? 0;
  return epoch === 0
    ? `${position.transactionId}:${position.globalPosition}`
    : `${epoch}:${position.transactionId}:${position.globalPosition}`;
}

export function decodePosition(checkpoint: Checkpoint): Required<PostgresPosition> {
  const match = /^(?:(\d+):)?(\d+):(\d+)$/.exec(checkpoint);
  if (match === null) throw new Error(`Not a PostgreSQL event store checkpoint: ${checkpoint}`);
  return { epoch: Number(match[1] ?? 0), transactionId: match[2], globalPosition: match[3] };
}

/** Orders as the store does: by epoch, transaction id, then global position. */
export function comparePositions(a: PostgresPosition, b: PostgresPosition): number {
  const byEpoch = (a.epoch ?? 0) - (b.epoch ?? 0);
  if (byEpoch !== 0) return Math.sign(byEpoch);
  const byTransaction = compareDecimal(a.transactionId, b.transactionId);
  return byTransaction !== 0 ? byTransaction : compareDecimal(a.globalPosition, b.globalPosition);
}

function compareDecimal(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** Orders two checkpoints of the store as `comparePositions` does their positions. */
export function compareCheckpoints(a: Checkpoint, b: Checkpoint): number {
  return comparePositions(decodePosition(a), decodePosition(b));
}
