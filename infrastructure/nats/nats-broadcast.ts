import type { NatsConnection } from 'nats';
import type { Broadcast } from '../../application/ports/work-queue.js';

/** A plain NATS subject (outside the work-queue stream's subjects), which every subscribed process hears. */
export function natsBroadcast(nats: NatsConnection, subject: string): Broadcast {
  return {
    async publish(message) {
      nats.publish(subject, JSON.stringify(message));
      await nats.flush();
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
