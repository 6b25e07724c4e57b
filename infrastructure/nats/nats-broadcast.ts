import type { NatsConnection } from 'nats';
import type { Broadcast } from '../../application/ports/work-queue.js';

/** How long a publish waits for the server to confirm it by default. */
const BROADCAST_FLUSH_TIMEOUT_MS = 2_000;

/**
 * A plain NATS subject (outside the work-queue stream's subjects), which every
 * subscribed process hears. A publish waits for the server's confirmation
 * (a flush) at most `flushTimeoutMs`: while the connection is down or
 * reconnecting a flush never ends, and a broadcast is best effort (a
 * cancellation's job is FAILED in the event store already, and the worker
 * reads that before uploading), so the caller must not hang on it. The
 * message stays in the client's buffer and goes out if the connection comes
 * back.
 */
export function natsBroadcast(
  nats: NatsConnection,
  subject: string,
  options: { flushTimeoutMs?: number } = {},
): Broadcast {
  const flushTimeoutMs = options.flushTimeoutMs ?? BROADCAST_FLUSH_TIMEOUT_MS;
  return {
    async publish(message) {
      nats.publish(subject, JSON.stringify(message));
      await withinTime(
        nats.flush(),
        flushTimeoutMs,
        `NATS did not confirm a message on ${subject} within ${flushTimeoutMs} ms`,
      );
    },
    subscribe(onMessage) {
      const subscription = nats.subscribe(subject, {
        callback: (error, received) => {
          if (error !== null) return;
          try {
            onMessage(received.json<unknown>());
          } catch {
            // Not JSON: not ours.
          }
        },
      });
      return {
        async stop() {
          subscription.unsubscribe();
        },
      };
    },
  };
}

async function withinTime(work: Promise<void>, timeoutMs: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  // A flush that fails after the deadline has no one left to tell.
  work.catch(() => undefined);
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
